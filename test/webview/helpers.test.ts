import assert from 'node:assert/strict';
import { meterDetails, meterParts, formatTokens } from '../../webview/src/components/composer/meter-format';
import { formatDuration, formatElapsed } from '../../webview/src/components/tool/duration';
import { resultState } from '../../webview/src/components/tool/tool-state';
import { formatBytes, noVisionMarker } from '../../webview/src/images/format';
import { fitWithin } from '../../webview/src/images/fit';
import { fuzzyMatch, rankPaths } from '../../webview/src/mention/fuzzy';
import { insertMention, mentionAt } from '../../webview/src/mention/mention';
import type { ToolItem } from '../../webview/src/state/types';

/** The webview's pure helpers, without a browser. */

describe('webview helpers', () => {
  it('fits the long side within the limit, keeping aspect, never enlarging', () => {
    assert.deepEqual(fitWithin(4000, 3000, 2048), { width: 2048, height: 1536 });
    assert.deepEqual(fitWithin(1000, 5000, 2048), { width: 410, height: 2048 });
    assert.deepEqual(fitWithin(800, 600, 2048), { width: 800, height: 600 });
    assert.deepEqual(fitWithin(10000, 1, 2048), { width: 2048, height: 1 });
  });

  it('formats sizes, durations, tokens and the no-vision marker', () => {
    assert.deepEqual([0, 812, 1024, 14540, 21 * 1024 * 1024, 20 * 1024 * 1024 + 1].map(formatBytes), ['0 B', '812 B', '1 KB', '14.2 KB', '21 MB', '20.0 MB']);
    assert.deepEqual([850, 4200, 12_900, 125_000].map(formatDuration), ['850ms', '4.2s', '12s', '2m 05s']);
    assert.deepEqual([0, 999, 4200, 125_000].map(formatElapsed), ['0s', '0s', '4s', '2m 05s']);
    assert.deepEqual([812, 8200, 12_400, 1_250_000].map(formatTokens), ['812', '8.2k', '12k', '1.3M']);
    assert.equal(noVisionMarker('a.png', 300, 200), '[image: a.png, 300x200, not sent: model has no vision]');
  });

  it('describes a round meter compactly and in full', () => {
    const m = { round: 4, promptTokens: 20_000, cachedTokens: 15_000, deferredTools: 12 };
    assert.deepEqual(meterParts(m), ['20k in', '75% cached', '12 tools deferred']);
    assert.equal(meterDetails(m), 'Round 4: 20,000 input tokens, 15,000 from the cache (75%); 12 deferred tools not sent');
    assert.deepEqual(meterParts({ round: 1, promptTokens: 0, cachedTokens: 0 }), ['0 in', '0% cached']);
    const counted = { round: 2, promptTokens: 3_400, cachedTokens: 0, estimated: true };
    assert.deepEqual(meterParts(counted), ['~3.4k in', '0% cached'], 'a count of our own is marked as approximate');
    assert.match(meterDetails(counted), /^Round 2: 3,400 input tokens, 0 from the cache \(0%\), counted with the model's tokenizer/);
  });

  it('names reasoning tokens and the parts an endpoint refused in the meter details', () => {
    const m = { round: 3, promptTokens: 1000, cachedTokens: 0, completionTokens: 900, reasoningTokens: 700, dropped: ['prompt_cache_key'] };
    assert.match(meterDetails(m), /900 output tokens \(700 of them reasoning\)/);
    assert.match(meterDetails(m), /the endpoint refused prompt_cache_key: requests there go without it$/);
  });

  it('tells pruned, stub and refused results apart', () => {
    const tool = (over: Partial<ToolItem>): ToolItem => ({ kind: 'tool', id: 'i', callId: 'c', tool: 'read_file', args: '', status: 'ok', output: '', ...over });
    const stub = '[earlier shell output pruned — 900 chars; re-run the tool if you need it again]';
    assert.equal(resultState(tool({ result: 'x'.repeat(900), prunedStub: stub }))?.state, 'pruned', 'the host said so; the stored result is whole');
    assert.equal(resultState(tool({ result: 'see [earlier notes]', prunedStub: '[SKILL_PRUNED: deploy; call skill_view("deploy") to reload]' }))?.state, 'pruned');
    assert.equal(resultState(tool({ result: stub })), undefined, 'a result that merely looks like a stub is not pruned');
    assert.equal(resultState(tool({ summary: 'unchanged since your earlier read_file of a.ts (3 lines, sha256 abcd1234); ...' }))?.state, 'stub');
    assert.equal(resultState(tool({ summary: 'x', result: 'same result as your earlier grep call (2 lines)' }))?.state, 'stub');
    assert.equal(resultState(tool({ status: 'error', errorCode: 'repeat_blocked', summary: 'error (repeat_blocked): ...' }))?.state, 'refused');
    assert.equal(resultState(tool({ summary: 'read a.ts', result: 'the [earlier text inside' })), undefined);
  });

  it('finds the @mention at the caret, not in e-mail addresses, and inserts paths (quoted with spaces)', () => {
    assert.deepEqual(mentionAt('see @src/ap', 11), { start: 4, query: 'src/ap' });
    assert.deepEqual(mentionAt('@', 1), { start: 0, query: '' });
    assert.deepEqual(mentionAt('(@x', 3), { start: 1, query: 'x' });
    assert.equal(mentionAt('me@example.com', 14), null);
    assert.equal(mentionAt('see @src and more', 17), null);
    assert.deepEqual(insertMention('see @ap and', 7, { start: 4, query: 'ap' }, 'src/app.ts'), { text: 'see @src/app.ts and', caret: 16 });
    assert.deepEqual(insertMention('see @apXX', 7, { start: 4, query: 'ap' }, 'my file.md'), { text: 'see @"my file.md" ', caret: 18 });
  });

  it('ranks file names and word starts above scattered matches', () => {
    assert.equal(fuzzyMatch('xyz', 'src/app.ts'), null);
    assert.deepEqual(fuzzyMatch('app', 'src/app.ts')?.positions, [4, 5, 6]);
    const ranked = rankPaths('app', ['lib/a/p/p.ts', 'src/apps/index.ts', 'src/app.ts', 'docs/happy.md']).map((m) => m.path);
    assert.equal(ranked[0], 'src/app.ts');
    assert.equal(ranked.at(-1), 'lib/a/p/p.ts');
    assert.deepEqual(
      rankPaths('', ['b', 'a']).map((m) => m.path),
      ['b', 'a'],
      'an empty query keeps the order',
    );
    assert.equal(rankPaths('', Array.from({ length: 30 }, (_, i) => `f${i}`)).length, 12);
  });
});
