/**
 * Issue 30 item 4 through the built CLI: `snowpea run "/name args"` sends a prompt file's text with
 * the arguments filled in, after the user's own words; `snowpea tools list` lists the commands,
 * agents, skills and instruction files, every file's text escaped for the terminal.
 */
import assert from 'node:assert/strict';
import type { ScriptedServer } from '../../fixtures/scripted-server';
import { cli, cliWorld } from '../cli/run-cli';
import { tempDir, writeFiles } from './world';

describe('snowpea run /command and tools list (issue 30 item 4)', function () {
  this.timeout(60000);
  const world = cliWorld('sp-slash-cli');
  let server: ScriptedServer;
  let ws: string;
  let home: string;
  let claude: string;
  beforeEach(() => {
    ({ server, ws, home } = world);
    claude = tempDir('sp-slash-claude-');
  });

  it('snowpea run "/review src/a.ts" sends the typed line, then the prompt file with the file filled in; an unknown /name goes as typed', async () => {
    writeFiles(ws, {
      '.github/prompts/review.prompt.md': '---\ndescription: Review a file\n---\nReview ${input:file} for bugs. Notes: $ARGUMENTS\n',
      'src/a.ts': 'export const a = 1;\n',
    });
    server.enqueue({ text: 'Looks fine.' });
    const r = await cli(['run', '/review file=src/a.ts carefully', '--base-url', server.baseUrl, '--model', 'gpt-4o'], { cwd: ws, home, env: { CLAUDE_CONFIG_DIR: claude } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Looks fine\./);
    const body = server.requests.filter((q) => q.path.endsWith('/chat/completions'))[0].body;
    assert.equal(body.messages.at(-1).content, '/review file=src/a.ts carefully\n[/review: .github/prompts/review.prompt.md]\nReview src/a.ts for bugs. Notes: file=src/a.ts carefully');

    server.enqueue({ text: 'No such command here.' });
    const plain = await cli(['run', '/nothing here', '--base-url', server.baseUrl, '--model', 'gpt-4o'], { cwd: ws, home, env: { CLAUDE_CONFIG_DIR: claude } });
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(server.requests.filter((q) => q.path.endsWith('/chat/completions'))[1].body.messages.at(-1).content, '/nothing here', 'an unknown /name goes as typed');
  });

  it('tools list: Commands, Agents, Skills and Instruction files after the tools, with notes; a file\'s escape sequences and bidi characters are escaped', async () => {
    writeFiles(ws, {
      '.claude/commands/fix.md': '---\ndescription: "Fix \\u001b[2J it \\u202e now"\nargument-hint: [issue]\nmodel: opus\n---\nFix $1\n',
      '.github/agents/docs.agent.md': "---\ndescription: Writes docs\ntools: ['read', 'edit']\n---\nDocs.",
      '.agents/skills/lint/SKILL.md': '---\nname: lint\ndescription: Lints\n---\n',
      '.clinerules': 'rules',
    });
    writeFiles(claude, { 'commands/mine.md': 'Mine.\n' });
    const r = await cli(['tools', 'list'], { cwd: ws, home, env: { CLAUDE_CONFIG_DIR: claude } });
    assert.equal(r.code, 0, r.stderr);
    const tail = r.stdout.slice(r.stdout.indexOf('Commands ('));
    assert.equal(
      tail,
      [
        'Commands (2)',
        '  /fix [issue]  .claude/commands/fix.md · Fix \\x1b[2J it \\u{202e} now',
        '      model opus not used: commands run on the model you chose',
        '  /mine  ~/.claude/commands/mine.md · Mine.',
        'Agents (1)',
        '  docs  .github/agents/docs.agent.md · Writes docs',
        '      tools: tool_search, read_file, view_image, list_dir, skill_view, write_file, edit_file',
        'Skills (1)',
        '  lint  .agents/skills/lint/SKILL.md · Lints',
        'Instruction files (1)',
        '  .clinerules',
        '',
      ].join('\n'),
    );
    assert.ok(!r.stdout.includes('\u001b') && !r.stdout.includes('\u202e'));
  });
});
