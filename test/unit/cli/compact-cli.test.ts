import assert from 'node:assert/strict';
import type { ScriptedServer } from '../../fixtures/scripted-server';
import { cli, cliWorld } from './run-cli';

const INSTRUCTION_HEAD = 'Context compaction:';
const lastUser = (body: any): string => [...body.messages].reverse().find((m: any) => m.role === 'user')?.content ?? '';

describe('snowpea CLI compaction (issue 20)', function () {
  this.timeout(60000);
  const world = cliWorld('sp-cli-compact');
  let server: ScriptedServer;
  let ws: string;
  let home: string;
  const model = () => ['--base-url', server.baseUrl, '--model', 'gpt-4o'];
  beforeEach(() => ({ server, ws, home } = world));

  async function session(): Promise<string> {
    server.enqueue({ toolCalls: [{ id: 'c1', name: 'list_dir', arguments: '{}' }] }, { text: 'I looked around.' });
    const r = await cli(['run', 'look around', ...model(), '--yes'], { cwd: ws, home });
    assert.equal(r.code, 0, r.stderr);
    return (JSON.parse((await cli(['sessions', 'list', '--json'], { cwd: ws, home })).stdout) as Array<{ id: string }>)[0].id;
  }

  it('issue 20: sessions compact ID --focus prints the summary, says what it did, and the next run carries the summary', async () => {
    const id = await session();
    server.enqueue({ text: '## Task\nlook around. SUMMARY-CLI' });
    const c = await cli(['sessions', 'compact', id, '--focus', 'the layout', ...model()], { cwd: ws, home });
    assert.equal(c.code, 0, c.stderr);
    assert.match(c.stdout, /SUMMARY-CLI/);
    assert.match(c.stderr, /conversation compacted: \d+(\.\d)?k? → \d+(\.\d)?k? tokens, 1 round summarized by gpt-4o/);
    const ask = server.chatRequests().at(-1)!.body;
    assert.ok(lastUser(ask).startsWith(INSTRUCTION_HEAD));
    assert.match(lastUser(ask), /keep in particular: the layout/);
    server.enqueue({ text: 'next' });
    const r = await cli(['run', 'go on', '--session', id, ...model()], { cwd: ws, home });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(server.chatRequests().at(-1)!.body.messages.some((m: { role: string; content: unknown }) => m.role === 'assistant' && String(m.content).includes('SUMMARY-CLI')));
  });

  it('issue 20: run --compact compacts before the turn and reports it on stderr; --json carries the compaction event', async () => {
    const id = await session();
    server.enqueue({ text: 'SUMMARY-RUN' }, { text: 'answered' });
    const r = await cli(['run', 'and now?', '--session', id, '--compact', '--json', ...model()], { cwd: ws, home });
    assert.equal(r.code, 0, r.stderr);
    const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    const c = events.find((e) => e.type === 'compaction');
    assert.equal(c.trigger, 'manual');
    assert.equal(c.summary, 'SUMMARY-RUN');
    assert.ok(events.indexOf(c) < events.findIndex((e) => e.type === 'turn.start'), 'before the turn');
  });

  it('issue 20: bad input: compact without --session, an unknown session, no session id', async () => {
    const noSession = await cli(['run', 'x', '--compact', ...model()], { cwd: ws, home });
    assert.equal(noSession.code, 1);
    assert.match(noSession.stderr, /--compact and --focus compact a stored conversation: give it with --session ID/);
    assert.equal(server.chatRequests().length, 0, 'nothing sent');
    const unknown = await cli(['sessions', 'compact', 'nope', ...model()], { cwd: ws, home });
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no session nope/);
    const noId = await cli(['sessions', 'compact'], { cwd: ws, home });
    assert.equal(noId.code, 1);
    assert.match(noId.stderr, /needs a session id/);
  });
});
