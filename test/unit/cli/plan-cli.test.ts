/** `snowpea run --plan` / `--act` and the todo list on stderr (issue 30 item 2), through the built CLI. */
import assert from 'node:assert/strict';
import type { ScriptedServer } from '../../fixtures/scripted-server';
import { TOOL } from '../../../extension/core/tools/names';
import { cli, cliWorld } from './run-cli';

const tools = (body: any): string[] => (body.tools ?? []).map((t: any) => t.function.name);

describe('snowpea run --plan, --act and the todo list', function () {
  this.timeout(60000);
  const world = cliWorld('sp-plan-cli');
  let server: ScriptedServer;
  let ws: string;
  let home: string;
  beforeEach(() => ({ server, ws, home } = world));

  it('--plan runs read-only, prints the list as it changes (escaped) and how to carry the plan out; --act runs it with every tool', async () => {
    const todos = [
      { text: 'read the config', status: 'done' },
      { text: 'change the port\u001b[31m', status: 'in_progress' },
      { text: 'run the tests', status: 'pending' },
    ];
    server.enqueue({ toolCalls: [{ id: 't1', name: TOOL.todo_write, arguments: JSON.stringify({ todos }) }] }, { text: '1. change the port' });
    const plan = await cli(['run', 'plan the port change', '--plan', '--base-url', server.baseUrl, '--model', 'gpt-4o'], { cwd: ws, home });
    assert.equal(plan.code, 0, plan.stderr);
    assert.match(plan.stderr, /^ {2}mode: plan$/m);
    assert.match(plan.stderr, /^ {2}todo:\n {4}\[x\] read the config\n {4}\[>\] change the port.*\n {4}\[ \] run the tests$/m);
    assert.ok(!plan.stderr.includes('\u001b[31m'), 'the model\'s escape sequence is not passed to the terminal');
    const id = /^session (\S+)$/m.exec(plan.stderr)![1];
    assert.match(plan.stderr, new RegExp(`plan mode: nothing was changed\\. To carry out the plan: snowpea run --session ${id} --act`));
    const [first] = server.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => r.body);
    assert.ok(tools(first).includes(TOOL.todo_write) && !tools(first).includes(TOOL.write_file));

    server.enqueue({ text: 'done' });
    const act = await cli(['run', 'carry out the plan', '--session', id, '--act', '--base-url', server.baseUrl, '--model', 'gpt-4o'], { cwd: ws, home });
    assert.equal(act.code, 0, act.stderr);
    assert.doesNotMatch(act.stderr, /plan mode: nothing was changed/);
    const last = server.requests.filter((r) => r.path.endsWith('/chat/completions')).at(-1)!.body;
    assert.ok(tools(last).includes(TOOL.write_file), 'act mode sends the writing tools');
    assert.ok(tools(last).includes(TOOL.todo_write), 'the list loaded in plan mode stays for the session');
  });

  it('--plan with --act is refused before anything runs', async () => {
    const r = await cli(['run', 'x', '--plan', '--act', '--base-url', server.baseUrl, '--model', 'gpt-4o'], { cwd: ws, home });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /--plan and --act pick opposite modes/);
    assert.equal(server.requests.length, 0);
  });
});
