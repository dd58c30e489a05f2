/**
 * Reliability N15: a 20 MB write_file per round kept every argument string in memory for the
 * whole process (RSS 112 -> 753 MB over 8 rounds, 2.7 GB over 25): the store kept them as content
 * files, but the session's messages (and the repeat guard's keys) still held each string. Once a
 * call is stored, its large arguments are read back from the content file when a request needs
 * them, and nothing else keeps them. Tested on the in-memory structures, not on timing or heap size.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Message } from '../../../extension/core/conversation/messages';
import { createHarness, type Harness } from '../../fixtures/agent-harness';
import { open } from './helpers';

/**
 * Paths from `root` to every string of at least `min` characters held as a plain value (an own
 * data property, an array item, a Map key or value, a Set item); accessors are not called.
 */
function bigStrings(root: unknown, min: number): string[] {
  const found: string[] = [];
  const seen = new Set<object>();
  const stack: Array<[unknown, string]> = [[root, '$']];
  let visited = 0;
  while (stack.length && visited++ < 3_000_000) {
    const [v, where] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.length >= min) found.push(`${where} (${v.length} chars)`);
      continue;
    }
    if (!v || (typeof v !== 'object' && typeof v !== 'function') || seen.has(v as object)) continue;
    seen.add(v as object);
    if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer || v instanceof WeakMap || v instanceof WeakSet || v instanceof WeakRef) continue;
    if (v instanceof Map) for (const [k, x] of v) stack.push([k, `${where}<key>`], [x, `${where}.get(${String(k).slice(0, 40)})`]);
    if (v instanceof Set) for (const x of v) stack.push([x, `${where}<item>`]);
    for (const key of Reflect.ownKeys(v as object)) {
      const d = Object.getOwnPropertyDescriptor(v, key);
      if (d && 'value' in d) stack.push([d.value, `${where}.${String(key)}`]);
    }
  }
  return found;
}

const MB = 1024 * 1024;

describe('reliability N15: large tool-call arguments are released once stored', function () {
  this.timeout(120_000);
  let h: Harness | null = null;
  afterEach(async () => {
    await h?.close().catch(() => {});
    h = null;
  });

  it('N15: after two rounds of a 2 MB write_file, nothing the agent holds keeps either argument string; requests still carry them in full and resume gives them back', async () => {
    h = await createHarness({ settings: { 'agent.compactAt': null } });
    const argsOf = (n: number) => JSON.stringify({ path: `big${n}.txt`, content: `${n}`.repeat(2 * MB) });
    h.server.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: argsOf(1) }] },
      { toolCalls: [{ name: 'write_file', arguments: argsOf(2) }] },
      { text: 'written' },
    );
    const session = h.agent.newSession();
    const result = await h.agent.runTurn(session, 'write two big files', new AbortController().signal);
    assert.equal(result.reason, 'done');
    assert.equal(fs.readFileSync(path.join(h.workspace, 'big2.txt'), 'utf8'), '2'.repeat(2 * MB));

    assert.deepEqual(bigStrings(session, MB), [], 'the session holds no argument string');
    assert.deepEqual(bigStrings(h.agent, MB), [], 'nor does anything the agent reaches (loop, tools, repeat guard, store)');
    // Read when needed: the calls still give their arguments, and the requests after each round carried them whole.
    const calls = session.messages.flatMap((m: Message) => (m.role === 'assistant' ? (m.toolCalls ?? []) : []));
    assert.deepEqual(calls.map((c) => c.arguments), [argsOf(1), argsOf(2)]);
    const last = h.bodies().at(-1);
    assert.deepEqual(last.messages.filter((m: { tool_calls?: unknown[] }) => m.tool_calls).map((m: { tool_calls: Array<{ function: { arguments: string } }> }) => m.tool_calls[0].function.arguments), [argsOf(1), argsOf(2)]);

    const dbFile = h.dbFile;
    await h.close();
    h = null;
    const again = await open(dbFile);
    const loaded = again.getMessages(session.id);
    assert.deepEqual(bigStrings(loaded, MB), [], 'a resumed session holds them as references too');
    const back = loaded.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : []));
    assert.deepEqual(back.map((c) => c.arguments), [argsOf(1), argsOf(2)]);
    assert.deepEqual(Object.keys(back[0]), ['id', 'name', 'arguments', 'title'], 'the call keeps its shape');
    assert.deepEqual(JSON.parse(JSON.stringify(back[1])).arguments, argsOf(2));
    await again.close();
  });
});
