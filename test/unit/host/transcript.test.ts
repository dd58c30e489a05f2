import assert from 'node:assert/strict';
import { toTranscript } from '../../../extension/host/chat/transcript';
import { createHarness, type Harness } from '../../fixtures/agent-harness';
import { makePng } from '../../fixtures/images/make';
import { docsLookup, reopenStored } from './replay-world';

/** The replay the webview gets, from sessions the real agent ran and stored. */

const lookup = docsLookup;

describe('host: the transcript a webview replays', () => {
  let h: Harness;
  const stored = reopenStored(() => h);

  it('puts the chip of the tools a call loaded right after its card, as the live view did', async () => {
    h = await createHarness({ files: { 'a.ts': 'export {}\n' }, extraTools: [lookup] });
    h.server.enqueue(
      {
        toolCalls: [
          { name: 'tool_search', arguments: JSON.stringify({ query: 'select:git_diff,git_commit' }) },
          { name: 'read_file', arguments: '{"path":"a.ts"}' },
        ],
      },
      { toolCalls: [{ name: 'mcp__docs__lookup', arguments: '{}' }] },
      { toolCalls: [{ name: 'tool_search', arguments: JSON.stringify({ query: 'select:git_diff' }) }] },
      { text: 'done' },
    );
    const s = h.agent.newSession();
    await h.agent.runTurn(s, 'commit it', new AbortController().signal);

    // What the live view showed, in order: the cards and the chips.
    const live = h.events.flatMap((e) =>
      e.type === 'tool.call' ? [`card ${e.tool}`] : e.type === 'tools.loaded' ? [`chip ${e.tools.join(', ')}`] : [],
    );
    assert.deepEqual(live, [
      'card tool_search',
      'chip git_diff, git_commit',
      'card read_file',
      'card mcp__docs__lookup',
      'chip mcp__docs__lookup',
      'card tool_search',
    ]);
    const replay = toTranscript(stored(s).messages).flatMap((e) =>
      e.role === 'tool' ? [`card ${e.tool}`] : e.role === 'tools.loaded' ? [`chip ${e.tools.join(', ')}`] : [],
    );
    assert.deepEqual(replay, live, 'the same cards and chips in the same order (none for a search that found its tools loaded already)');
  });

  it('shows what the user typed and their images, not the inlined files nor the notes about refused attachments', async () => {
    h = await createHarness({ files: { 'src/a.ts': 'export const secret = 42;\n' } });
    const good = makePng({ width: 64, height: 32 }).toString('base64');
    const broken = makePng({ width: 64, height: 32 }).subarray(0, 60).toString('base64');
    const typed = 'why does @src/a.ts fail? see @nope/x.ts';
    const composed = await h.agent.compose({
      text: typed,
      images: [
        { name: 'shot.png', mime: 'image/png', dataBase64: good },
        { name: 'cut.png', mime: 'image/png', dataBase64: broken },
      ],
    });
    assert.equal(composed.problems.length, 2, 'the missing mention and the broken image');
    const imageOnly = await h.agent.compose({ text: '', images: [{ name: 'only.png', mime: 'image/png', dataBase64: good }] });
    h.server.enqueue({ text: 'one' }, { text: 'two' }, { text: 'three' });
    const s = h.agent.newSession();
    await h.agent.runTurn(s, composed.content, new AbortController().signal);
    await h.agent.runTurn(s, 'plain follow-up', new AbortController().signal);
    await h.agent.runTurn(s, imageOnly.content, new AbortController().signal);

    const users = toTranscript(stored(s).messages).filter((e) => e.role === 'user');
    assert.deepEqual(users, [
      { role: 'user', text: typed, images: [{ name: 'shot.png', mime: 'image/png', width: 64, height: 32 }], turn: 1 },
      { role: 'user', text: 'plain follow-up', turn: 2 },
      { role: 'user', text: '', images: [{ name: 'only.png', mime: 'image/png', width: 64, height: 32 }], turn: 3 },
    ]);
  });

  it('issue 20: a compaction replays as a divider where it happened, with the numbers and the summary of the live event', async () => {
    h = await createHarness({ files: { 'a.txt': 'alpha\n'.repeat(200) } });
    const s = h.agent.newSession();
    h.server.enqueue({ toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"a.txt"}' }] }, { text: 'read it' });
    await h.agent.runTurn(s, 'read a.txt', new AbortController().signal);
    h.server.enqueue({ text: '## Task\nread **a.txt**\n\n## Next\nnothing' });
    await h.agent.compact(s, 'keep the API design', new AbortController().signal);
    h.server.enqueue({ text: 'next' });
    await h.agent.runTurn(s, 'what next?', new AbortController().signal);

    const live = h.events.find((e) => e.type === 'compaction');
    assert.ok(live?.type === 'compaction');
    const replay = toTranscript(stored(s).messages);
    assert.deepEqual(
      replay.map((e) => e.role),
      ['user', 'tool', 'assistant', 'compaction', 'user', 'assistant'],
      'the divider after the rounds it summarized, before the next prompt; the summary is not shown as a user message',
    );
    assert.deepEqual(replay[3], {
      role: 'compaction',
      trigger: 'manual',
      tokensBefore: live.tokensBefore,
      tokensAfter: live.tokensAfter,
      rounds: live.rounds,
      summary: '## Task\nread **a.txt**\n\n## Next\nnothing',
      focus: 'keep the API design',
    });
    assert.equal(live.summary, (replay[3] as { summary: string }).summary, 'the replayed summary is the one the live divider showed');
  });

  it('issue 20: a fallback compaction replays as a divider with no summary, like the live one', async () => {
    h = await createHarness({ maxRetries: 0 });
    const s = h.agent.newSession();
    h.server.enqueue({ text: 'one' });
    await h.agent.runTurn(s, 'hello', new AbortController().signal);
    h.server.enqueue({ fault: { status: 500, message: 'summary backend down' } });
    const out = await h.agent.compact(s, undefined, new AbortController().signal);
    assert.equal(out?.record.trigger, 'fallback');

    const divider = toTranscript(stored(s).messages).find((e) => e.role === 'compaction');
    assert.deepEqual(divider, { role: 'compaction', trigger: 'fallback', tokensBefore: out.record.tokensBefore, tokensAfter: out.record.tokensAfter, rounds: 1, summary: '' });
    assert.equal(out.summary, '', 'the live event carries no summary either');
  });
});
