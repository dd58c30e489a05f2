import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MEMORY_CAP } from '../../../extension/core/tools/memory/memory-store';
import { createHarness, type Harness } from '../../fixtures/agent-harness';

const mem = (args: Record<string, unknown>) => ({ name: 'memory', arguments: JSON.stringify(args) });
const isChild = (body: any) => /You have \d+ tool rounds for this task\./.test(body.messages[0].content);

describe('memory', () => {
  let h: Harness;
  let oldHome: string | undefined;
  beforeEach(() => {
    oldHome = process.env.SNOWPEA_HOME;
    process.env.SNOWPEA_HOME = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-home-'));
  });
  afterEach(async () => {
    if (h) await h.close();
    if (oldHome === undefined) delete process.env.SNOWPEA_HOME;
    else process.env.SNOWPEA_HOME = oldHome;
  });

  it('adds, replaces, removes and reads entries in both stores; the digest reaches the next turn', async () => {
    h = await createHarness();
    h.server.enqueue(
      { toolCalls: [mem({ action: 'add', text: 'Use pnpm, not npm.' })] },
      { toolCalls: [mem({ action: 'add', scope: 'user', text: 'Answer in British English.' })] },
      { toolCalls: [mem({ action: 'replace', old_text: 'pnpm', text: 'Use pnpm 9, not npm.' })] },
      { toolCalls: [mem({ action: 'add', text: 'Temporary note.' })] },
      { toolCalls: [mem({ action: 'remove', old_text: 'Temporary' })] },
      { toolCalls: [mem({ action: 'remove', old_text: 'missing' })] },
      { text: 'saved' },
      { text: 'second turn' },
    );
    const s = h.agent.newSession();
    await h.agent.runTurn(s, 'remember things', new AbortController().signal);
    assert.equal(fs.readFileSync(path.join(h.workspace, '.snowpea/memory.md'), 'utf8'), '- Use pnpm 9, not npm.\n');
    assert.equal(fs.readFileSync(path.join(process.env.SNOWPEA_HOME!, 'memory.md'), 'utf8'), '- Answer in British English.\n');
    const results = h.bodies()[6].messages.filter((m: any) => m.role === 'tool').map((m: any) => m.content);
    assert.match(results[5], /not_found.*no entry contains "missing"/);
    await h.agent.runTurn(s, 'next', new AbortController().signal);
    const system = h.bodies()[7].messages[0].content;
    assert.match(system, /Workspace memory \(\.snowpea\/memory\.md\):\n- Use pnpm 9, not npm\./);
    assert.match(system, /User memory \(~\/\.snowpea\/memory\.md\):\n- Answer in British English\./);
    assert.match(system, /save it with the memory tool/);
  });

  it('refuses an entry that would overflow the store, and keeps the file as it was', async () => {
    h = await createHarness({ files: { '.snowpea/memory.md': `- ${'x'.repeat(MEMORY_CAP - 10)}\n` } });
    h.server.enqueue({ toolCalls: [mem({ action: 'add', text: 'one more fact that does not fit' })] }, { text: 'ok' });
    await h.agent.runTurn(h.agent.newSession(), 'go', new AbortController().signal);
    const result = h.bodies()[1].messages.find((m: any) => m.role === 'tool').content;
    assert.match(result, /too_large.*\.snowpea\/memory\.md is full/);
    assert.equal(fs.readFileSync(path.join(h.workspace, '.snowpea/memory.md'), 'utf8').length, MEMORY_CAP - 7);
  });

  it('writes to .snowpea/memory.md always ask, even when writes are auto-approved', async () => {
    h = await createHarness({ approve: 'deny', settings: { 'approvals.autoApprove': ['write', 'memory'] } });
    h.server.enqueue({ toolCalls: [mem({ action: 'add', text: 'x' })] }, { text: 'ok' });
    await h.agent.runTurn(h.agent.newSession(), 'go', new AbortController().signal);
    const result = h.bodies()[1].messages.find((m: any) => m.role === 'tool').content;
    assert.match(result, /denied/);
    assert.ok(!fs.existsSync(path.join(h.workspace, '.snowpea/memory.md')));
  });

  it('lean children get neither the memory digest nor the memory instructions', async () => {
    h = await createHarness({ files: { '.snowpea/memory.md': '- Project fact.\n' } });
    h.server.setResponder((body) => (isChild(body) ? { text: 'done' } : body.messages.some((m: any) => m.role === 'tool') ? { text: 'ok' } : { toolCalls: [{ name: 'delegate_task', arguments: '{"task":"t"}' }] }));
    await h.agent.runTurn(h.agent.newSession(), 'go', new AbortController().signal);
    assert.match(h.bodies()[0].messages[0].content, /Project fact\./);
    const child = h.bodies().find(isChild).messages[0].content;
    assert.doesNotMatch(child, /Project fact|memory tool/);
  });
});
