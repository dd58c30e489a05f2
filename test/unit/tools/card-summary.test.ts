import assert from 'node:assert/strict';
import { z } from 'zod';
import { argsPreview, callSummary, callTitle, resultSummary } from '../../../extension/core/tools/card-summary';
import { okResult, type AnyTool } from '../../../extension/core/tools/types';
import { standInTool } from '../../fixtures/stand-in-tool';
import { registry as builtinRegistry } from './helpers';

/** What a tool card shows of a call, computed once in core (issue 21, facts as data). */

function probe(describeCall: AnyTool['describeCall']): AnyTool {
  return standInTool('probe', async () => okResult('ok'), { input: z.object({ text: z.string() }), ...(describeCall ? { describeCall } : {}) });
}

describe('tools: the card title and summary (card-summary.ts)', () => {
  const registry = builtinRegistry();
  const title = (name: string, args: string) => callTitle({ name, arguments: args }, registry.get(name), () => registry.jsonSchemaOf(name));

  it("titles a call with its tool's describeCall on the parsed arguments", () => {
    assert.equal(title('read_file', '{"path":"src/a.ts"}'), 'read src/a.ts');
    assert.equal(title('read_file', '{"path":"src/a.ts","offset":10,"limit":5}'), 'read src/a.ts (lines 10-14)');
    assert.equal(title('shell', '{"command":"npm test"}'), 'run: npm test');
    assert.equal(title('grep', '{"pattern":"TODO","path":"src"}'), 'grep /TODO/ in src');
  });

  it("falls back to the tool's name when the arguments do not parse, do not validate, or the tool is unknown", () => {
    assert.equal(title('read_file', '{"path": '), 'read_file', 'not JSON');
    assert.equal(title('read_file', '{"path": 3}'), 'read_file', 'a number where a string belongs');
    assert.equal(title('read_file', '["a.ts"]'), 'read_file', 'not an object');
    assert.equal(title('no_such_tool', '{}'), 'no_such_tool');
  });

  it('falls back to the name when describeCall throws, returns nothing, or the tool has none; keeps a title on one line and short', () => {
    const schema = () => ({});
    const call = { name: 'probe', arguments: '{"text":"a\\n\\tb"}' };
    assert.equal(callTitle(call, probe(() => { throw new Error('bad'); }), schema), 'probe');
    assert.equal(callTitle(call, probe(() => '  '), schema), 'probe');
    assert.equal(callTitle(call, probe(undefined), schema), 'probe');
    assert.equal(callTitle(call, probe((a) => `say ${(a as { text: string }).text}`), schema), 'say a b');
    const long = callTitle({ name: 'probe', arguments: JSON.stringify({ text: 'x'.repeat(500) }) }, probe((a) => (a as { text: string }).text), schema);
    assert.equal(long.length, 160);
    assert.ok(long.endsWith('…'));
  });

  it('a running card shows the arguments only when the title does not already say what runs', () => {
    assert.equal(callSummary({ name: 'shell', arguments: '{"command":"npm test"}', title: 'run: npm test' }), '');
    assert.equal(callSummary({ name: 'read_file', arguments: '{"path": 3}', title: 'read_file' }), '3', 'bad arguments: the preview shows what was sent');
    assert.equal(callSummary({ name: 'read_file', arguments: '{"path":"a.ts"}' }), 'a.ts', 'a call stored before titles were');
    assert.equal(callSummary({ name: 'x', arguments: 'not json\n at all', title: 'x' }), 'not json at all');
  });

  it('a finished card shows the first line of the result, cut at 200 characters', () => {
    assert.equal(resultSummary('exit 0: 12 passing\nmore'), 'exit 0: 12 passing');
    assert.equal(resultSummary(''), '');
    const cut = resultSummary('y'.repeat(300));
    assert.equal(cut.length, 200);
    assert.ok(cut.endsWith('…'));
    assert.equal(argsPreview(JSON.stringify({ a: 'x'.repeat(200) })).length, 120);
  });
});
