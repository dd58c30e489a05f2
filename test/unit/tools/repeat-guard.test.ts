import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHarness, type Harness } from '../../fixtures/agent-harness';

const read = (p: string, extra: Record<string, unknown> = {}) => ({ name: 'read_file', arguments: JSON.stringify({ path: p, ...extra }) });
const glob = (p: string) => ({ name: 'glob', arguments: JSON.stringify({ pattern: p }) });

/** The tool results of the last request, in order. */
function toolResults(h: Harness): string[] {
  const last = h.bodies().at(-1);
  return last.messages.filter((m: any) => m.role === 'tool').map((m: any) => m.content);
}

const FILE = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('repeat guard', () => {
  let h: Harness;
  afterEach(async () => h && (await h.close()));

  it('level 1: unchanged re-reads get the stub twice, the fourth read is refused', async () => {
    h = await createHarness({ files: { 'core/app.py': FILE, 'x.txt': 'x\n' }, settings: { 'agent.keepToolRounds': 20 } });
    // Other calls in between keep level 2 (consecutive repeats) out of the picture.
    h.server.enqueue(
      { toolCalls: [read('core/app.py')] },
      { toolCalls: [glob('*.txt')] },
      { toolCalls: [read('core/app.py')] },
      { toolCalls: [glob('*.md')] },
      { toolCalls: [read('core/app.py')] },
      { toolCalls: [glob('*.json')] },
      { toolCalls: [read('core/app.py')] },
      { text: 'done' },
    );
    await h.agent.runTurn(h.agent.newSession(), 'go', new AbortController().signal);
    const results = toolResults(h);
    const sha = (await import('node:crypto')).createHash('sha256').update(FILE).digest('hex').slice(0, 8);
    assert.match(results[0], /line 12/);
    const stub = `unchanged since your earlier read_file of core/app.py (12 lines, sha256 ${sha}); the content in that result is still current`;
    assert.equal(results[2], stub);
    assert.equal(results[4], stub);
    assert.match(results[6], /^error \(repeat_blocked\)/);
    assert.match(results[6], /still current/);
  });

  it('level 1: a different range, an edit through Snowpea, or a change on disk reads in full again', async () => {
    h = await createHarness({ files: { 'a.txt': FILE } });
    h.server.enqueue(
      { toolCalls: [read('a.txt')] },
      { toolCalls: [read('a.txt', { offset: 2, limit: 3 })] },
      { toolCalls: [{ name: 'edit_file', arguments: JSON.stringify({ path: 'a.txt', old_string: 'line 1\n', new_string: 'line one\n' }) }] },
      { toolCalls: [read('a.txt')] },
      { toolCalls: [glob('*')] },
      { toolCalls: [read('a.txt')] },
    );
    h.server.setResponder((_b, i) => {
      if (i === 6) fs.appendFileSync(path.join(h.workspace, 'a.txt'), 'appended on disk\n');
      return i === 6 ? { toolCalls: [read('a.txt')] } : { text: 'done' };
    });
    await h.agent.runTurn(h.agent.newSession(), 'go', new AbortController().signal);
    const r = toolResults(h);
    assert.match(r[1], /line 2/, 'another range is its own key');
    assert.match(r[3], /line one/, 'read after edit is full');
    assert.match(r[5], /^unchanged since/, 'unchanged again gets the stub');
    assert.match(r[6], /appended on disk/, 'a change on disk reads in full');
  });

  it('level 2: the third identical call in a row warns, the fourth is refused; scanning output repeats become stubs', async () => {
    h = await createHarness({ files: { 'a.txt': 'a\n', 'b.txt': 'b\n' } });
    h.server.enqueue({ toolCalls: [glob('*.txt')] }, { toolCalls: [glob('*.txt')] }, { toolCalls: [glob('*.txt')] }, { toolCalls: [glob('*.txt')] }, { text: 'done' });
    await h.agent.runTurn(h.agent.newSession(), 'go', new AbortController().signal);
    const r = toolResults(h);
    assert.match(r[0], /a\.txt/);
    assert.equal(r[1], 'same result as your earlier glob call (2 lines)');
    assert.ok(r[2].startsWith('same result as your earlier glob call (2 lines)\nwarning: this is the 3rd identical glob call in a row'), r[2]);
    assert.match(r[3], /^error \(repeat_blocked\): glob was called 4 times in a row/);
  });

  it('level 2: an intervening call resets the streak; identical scan results still stub and the 4th is refused', async () => {
    h = await createHarness({ files: { 'a.txt': 'a\n' } });
    const steps = [glob('*.txt'), read('a.txt'), glob('*.txt'), read('a.txt'), glob('*.txt'), glob('*.md'), glob('*.txt')];
    h.server.enqueue(...steps.map((c) => ({ toolCalls: [c] })), { text: 'done' });
    await h.agent.runTurn(h.agent.newSession(), 'go', new AbortController().signal);
    const r = toolResults(h);
    assert.doesNotMatch(r.join('\n'), /warning: this is the 3rd/);
    assert.equal(r[2], 'same result as your earlier glob call (1 lines)');
    assert.match(r[6], /^error \(repeat_blocked\): glob returned the same result 3 times/);
  });

  it('level 3: five of the same call in the window append the loop line and emit loop.suspected once per turn', async () => {
    h = await createHarness({ files: { 'a.txt': 'a\n' } });
    let n = 0;
    const sh = () => ({ name: 'shell', arguments: JSON.stringify({ command: 'echo $RANDOM$RANDOM' }) });
    const other = () => ({ name: 'glob', arguments: JSON.stringify({ pattern: `*.${n++}` }) });
    const steps = [sh(), other(), sh(), other(), sh(), other(), sh(), other(), sh(), other(), sh()];
    h.server.enqueue(...steps.map((c) => ({ toolCalls: [c] })), { text: 'done' });
    await h.agent.runTurn(h.agent.newSession(), 'go', new AbortController().signal);
    const r = toolResults(h);
    assert.ok(r[8].endsWith('loop suspected: shell with the same arguments has run 5 times this turn; change approach or finish with what you have'), r[8]);
    assert.doesNotMatch(r[10], /loop suspected/, 'at most once per turn');
    const events = h.events.filter((e) => e.type === 'loop.suspected');
    assert.equal(events.length, 1);
    assert.deepEqual({ tool: (events[0] as any).tool, count: (events[0] as any).count }, { tool: 'shell', count: 5 });
  });

  it('counters reset at each user turn', async () => {
    h = await createHarness({ files: { 'a.txt': 'a\n' } });
    h.server.enqueue({ toolCalls: [glob('*.txt')] }, { toolCalls: [glob('*.txt')] }, { toolCalls: [glob('*.txt')] }, { text: 'one' }, { toolCalls: [glob('*.txt')] }, { text: 'two' });
    const s = h.agent.newSession();
    await h.agent.runTurn(s, 'first', new AbortController().signal);
    await h.agent.runTurn(s, 'second', new AbortController().signal);
    const r = toolResults(h);
    assert.match(r[3], /a\.txt/, 'the first call of a new turn runs and returns its output');
    assert.doesNotMatch(r[3], /repeat_blocked|warning/);
  });

  it('tools.repeatGuard false turns all of it off', async () => {
    h = await createHarness({ files: { 'a.txt': FILE }, settings: { 'tools.repeatGuard': false } });
    h.server.enqueue(...[1, 2, 3, 4, 5].map(() => ({ toolCalls: [read('a.txt')] })), { text: 'done' });
    await h.agent.runTurn(h.agent.newSession(), 'go', new AbortController().signal);
    const r = toolResults(h);
    assert.equal(r.length, 5);
    for (const x of r) assert.match(x, /line 12/);
    assert.equal(h.events.filter((e) => e.type === 'loop.suspected').length, 0);
  });

  it('does not stub a re-read whose earlier result was pruned from the request', async () => {
    h = await createHarness({ files: { 'a.txt': FILE + 'x'.repeat(400) + '\n' }, settings: { 'agent.keepToolRounds': 2 } });
    h.server.enqueue({ toolCalls: [read('a.txt')] }, { toolCalls: [glob('*.a')] }, { toolCalls: [glob('*.b')] }, { toolCalls: [glob('*.c')] }, { toolCalls: [read('a.txt')] }, { text: 'done' });
    await h.agent.runTurn(h.agent.newSession(), 'go', new AbortController().signal);
    const r = toolResults(h);
    assert.match(r[0], /^\[earlier read_file output pruned/);
    assert.match(r[4], /line 12/, 'full content, since the model no longer has the earlier one');
  });
});
