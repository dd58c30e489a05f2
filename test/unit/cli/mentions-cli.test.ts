import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, cliWorld } from './run-cli';

describe('snowpea CLI: @changes, @problems and @terminal in a prompt', function () {
  this.timeout(60000);
  const world = cliWorld('sp-cli-mentions');

  it('@changes attaches the working tree\'s diff; @problems and @terminal, VS Code\'s only, leave a note on stderr and for the model', async () => {
    const { server, ws, home } = world;
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=T', ...args], { cwd: ws, encoding: 'utf8' });
    git('init', '-q');
    fs.writeFileSync(path.join(ws, 'app.py'), 'print("one")\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'start');
    fs.writeFileSync(path.join(ws, 'app.py'), 'print("two")\n');
    server.enqueue({ text: 'Reviewed.' });
    const run = await cli(['run', 'review @changes, and @problems @terminal', '--base-url', server.baseUrl, '--model', 'gpt-4o'], { cwd: ws, home });
    assert.equal(run.code, 0, run.stderr);
    const user = server.chatRequests()[0]!.body.messages.filter((m: { role: string }) => m.role === 'user').at(-1);
    const text = typeof user.content === 'string' ? user.content : user.content.map((p: { text?: string }) => p.text ?? '').join('\n');
    assert.match(text, /^review @changes, and @problems @terminal\n<changes base="HEAD" files="1" added="1" removed="1" untracked="0">\ndiff --git a\/app\.py b\/app\.py\n[\s\S]*-print\("one"\)\n\+print\("two"\)\n<\/changes>\n\[@problems: not attached: only VS Code knows/);
    assert.match(text, /\n\[@terminal: not attached: only VS Code's terminals can be read; paste the output instead\]$/);
    assert.match(run.stderr, /^snowpea: \[@problems: not attached: only VS Code knows the workspace's problems/m);
    assert.match(run.stderr, /^snowpea: \[@terminal: not attached: only VS Code's terminals can be read/m);
    assert.doesNotMatch(run.stderr, /@changes/, 'an attached diff is not a problem to report');
  });
});
