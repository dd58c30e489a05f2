/** `snowpea run --agent NAME`: the session runs as a custom agent, stored for later runs; an unknown name is refused before anything is sent. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ScriptedServer } from '../../fixtures/scripted-server';
import { TOOL } from '../../../extension/core/tools/names';
import { cli, cliWorld } from './run-cli';

const tools = (body: any): string[] => (body.tools ?? []).map((t: any) => t.function.name);
const chats = (server: ScriptedServer) => server.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => r.body);

describe('snowpea run --agent', function () {
  this.timeout(60000);
  const world = cliWorld('sp-agent-cli');
  let server: ScriptedServer;
  let ws: string;
  let home: string;
  let claude: string;
  beforeEach(() => {
    ({ server, ws, home } = world);
    claude = path.join(home, 'claude');
    fs.mkdirSync(path.join(ws, '.claude', 'agents'), { recursive: true });
    fs.writeFileSync(path.join(ws, '.claude', 'agents', 'reader.md'), '---\nname: reader\ndescription: Reads only\ntools: Read, Grep\n---\nREADER-BODY\n');
  });
  const run = (args: string[]) => cli(['run', ...args, '--base-url', server.baseUrl, '--model', 'gpt-4o'], { cwd: ws, home, env: { CLAUDE_CONFIG_DIR: claude } });

  it('runs the session as the agent, also in the next run of the session; --agent snowpea goes back', async () => {
    server.enqueue({ text: 'read it' });
    const first = await run(['look around', '--agent', 'reader']);
    assert.equal(first.code, 0, first.stderr);
    const id = /^session (\S+)$/m.exec(first.stderr)![1];
    const [body] = chats(server);
    assert.match(body.messages[0].content, /You run as the reader agent\. Its instructions:\nREADER-BODY/);
    assert.ok(tools(body).includes(TOOL.read_file) && !tools(body).includes(TOOL.write_file), tools(body).join());

    server.enqueue({ text: 'still reading' });
    assert.equal((await run(['more', '--session', id])).code, 0);
    assert.match(chats(server)[1].messages[0].content, /You run as the reader agent/, 'the session keeps its agent');

    server.enqueue({ text: 'back' });
    assert.equal((await run(['now write', '--session', id, '--agent', 'snowpea'])).code, 0);
    const last = chats(server)[2];
    assert.doesNotMatch(last.messages[0].content, /You run as the reader agent/);
    assert.ok(tools(last).includes(TOOL.write_file));
  });

  it('an unknown name is refused, naming the agents there are, before any request; no session is kept', async () => {
    const r = await run(['x', '--agent', 'writer\u001b[31m']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /--agent writer.*: no such custom agent; known: reader/);
    assert.ok(!r.stderr.includes('\u001b[31m'), 'the name is escaped for the terminal');
    assert.equal(chats(server).length, 0);
    const list = await cli(['sessions', 'list'], { cwd: ws, home });
    assert.doesNotMatch(list.stdout, /\b[0-9a-f]{8}-/, 'the refused run left no session');
  });
});
