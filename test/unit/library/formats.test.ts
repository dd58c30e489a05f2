/**
 * Issue 30 item 4: the files people already have, each format read as its own agent reads it:
 * slash commands (Snowpea, Claude Code, VS Code prompt files), custom agents (VS Code, Claude
 * Code, Roo Code's .roomodes), skills and instruction files of the other agents.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { discoverContextFiles } from '../../../extension/core/context/context-files';
import { expandCommand, findAgent, findCommand, listAgents, listCommands, slashInvocation } from '../../../extension/core/library';
import { splitArguments } from '../../../extension/core/library/expand';
import { listSkills } from '../../../extension/core/tools/skills';
import { protectedReason } from '../../../extension/core/tools/paths';
import { libraryWorld, writeFiles } from './world';

const skipped = () => {
  const lines: string[] = [];
  return { lines, onSkip: (why: string) => lines.push(why) };
};

describe('library: the other agents\' file formats (issue 30 item 4)', () => {
  const w = libraryWorld();

  it('Claude Code commands: the file name (folders only group them), description or the first line, argument-hint as a YAML list, $ARGUMENTS and $1', () => {
    writeFiles(w.ws, {
      '.claude/commands/frontend/component.md': '---\nargument-hint: [name] [kind]\nallowed-tools: Bash(git add:*)\nmodel: claude-opus-4\n---\n# Create component $1 of kind $2\nAll: $ARGUMENTS\n!`git status`\n',
      '.claude/commands/fix-issue.md': '---\ndescription: Fix a GitHub issue\nargument-hint: [issue]\n---\nFix issue #$1 ($ARGUMENTS[0]). Missing: [$3]\n',
      '.claude/commands/notes.txt': 'not a command',
    });
    const s = skipped();
    const commands = listCommands(w.ws, { onSkip: s.onSkip });
    assert.deepEqual(commands.map((c) => [c.name, c.origin, c.description, c.argumentHint, c.format]), [
      ['component', '.claude/commands/frontend/component.md', 'Create component $1 of kind $2', '[name] [kind]', 'claude'],
      ['fix-issue', '.claude/commands/fix-issue.md', 'Fix a GitHub issue', '[issue]', 'claude'],
    ]);
    const component = findCommand(commands, 'component')!;
    assert.deepEqual(component.notes, [
      'model claude-opus-4 not used: commands run on the model you chose',
      'allowed-tools not used: tools ask as usual',
      '!`command` lines are not run before sending; the model reads them as text',
    ]);
    assert.match(s.lines.join('\n'), /component\.md: not valid YAML .*read as plain key: value lines/, 'the header YAML refuses is read line by line, and said');
    assert.equal(expandCommand(component, '"My Button" primary', w.ws), '# Create component My Button of kind primary\nAll: "My Button" primary\n!`git status`\n');
    assert.equal(expandCommand(findCommand(commands, 'FIX-ISSUE')!, '123 urgent', w.ws), 'Fix issue #123 (123). Missing: []\n');
  });

  it('VS Code prompt files: only *.prompt.md, the name field, ${input:name} from name=value, ${workspaceFolderBasename}; tools, model and agent are said, not used', () => {
    writeFiles(w.ws, {
      '.github/prompts/review.prompt.md': "---\nname: review-file\ndescription: 'Review a file'\nargument-hint: file=<path>\nagent: agent\nmodel: GPT-5 (copilot)\ntools: ['search', 'read']\n---\nReview ${input:file} in ${workspaceFolderBasename} for ${input:focus:what to look at}. ${selection}\n",
      '.github/prompts/plain.prompt.md': 'Say hi.\n',
      '.github/prompts/README.md': '# not a prompt\n',
    });
    const commands = listCommands(w.ws);
    assert.deepEqual(commands.map((c) => c.name), ['plain', 'review-file']);
    const review = findCommand(commands, 'review-file')!;
    assert.equal(review.argumentHint, 'file=<path>');
    assert.deepEqual(review.notes, ['model GPT-5 (copilot) not used: commands run on the model you chose', 'tools list not used: the session keeps its tools', "agent agent not used: the command runs in the chat's mode"]);
    assert.equal(expandCommand(review, 'file=src/a.ts', w.ws), `Review src/a.ts in ${path.basename(w.ws)} for [focus (what to look at): not given]. \${selection}\n`);
  });

  it('Snowpea commands win over Claude Code\'s and VS Code\'s of the same name, the workspace over the user; the composer\'s own names stay its own', () => {
    writeFiles(w.ws, {
      '.snowpea/commands/review.md': '---\ndescription: ours\n---\nSnowpea review\n',
      '.claude/commands/review.md': 'Claude review\n',
      '.github/prompts/review.prompt.md': 'Copilot review\n',
      '.claude/commands/plan.md': 'would shadow /plan\n',
      [path.join(w.claude, 'commands', 'mine.md')]: 'user Claude command\n',
      [path.join(w.home, 'commands', 'review.md')]: 'user Snowpea review\n',
    });
    const s = skipped();
    const commands = listCommands(w.ws, { onSkip: s.onSkip });
    assert.deepEqual(commands.map((c) => [c.name, c.origin, c.scope]), [
      ['mine', '~/.claude/commands/mine.md', 'user'],
      ['review', '.snowpea/commands/review.md', 'workspace'],
    ]);
    assert.ok(s.lines.includes("command not listed: .claude/commands/plan.md: /plan is Snowpea's own"));
    assert.ok(s.lines.includes('command not listed: .github/prompts/review.prompt.md: /review is taken by .snowpea/commands/review.md'));
  });

  it('slash invocations and arguments: /name, then the rest; quotes group words; paths and other text are not invocations', () => {
    assert.deepEqual(slashInvocation('/review  src/a.ts  now '), { name: 'review', args: 'src/a.ts  now' });
    assert.deepEqual(slashInvocation('/x'), { name: 'x', args: '' });
    assert.equal(slashInvocation('/usr/bin/env is broken'), undefined);
    assert.equal(slashInvocation('please /review'), undefined);
    assert.deepEqual(splitArguments(`a "b c" 'd \\e' f\\ g`), ['a', 'b c', 'd \\e', 'f g']);
  });

  it('VS Code custom agents (.agent.md): name from the file, tools mapped to Snowpea\'s, unknown tools, handoffs and the model said', () => {
    writeFiles(w.ws, {
      '.github/agents/docs.agent.md': "---\ndescription: Writes docs\ntools: ['read', 'edit', 'github/*', 'problems']\nmodel: Claude Sonnet 4\nhandoffs:\n  - label: Review\n    agent: reviewer\n---\nYou write documentation.\n",
    });
    const [docs] = listAgents(w.ws);
    assert.equal(docs.name, 'docs');
    assert.equal(docs.description, 'Writes docs');
    assert.equal(docs.instructions, 'You write documentation.');
    assert.deepEqual(docs.tools, ['tool_search', 'read_file', 'view_image', 'list_dir', 'skill_view', 'write_file', 'edit_file', 'mcp__github__*']);
    assert.deepEqual(docs.notes, ['model Claude Sonnet 4 not used: agents run on the model you chose', 'handoffs not used', 'tools Snowpea does not have, left out: problems']);
  });

  it('Claude Code agents: comma-separated tools, disallowedTools, maxTurns; permissionMode is said and not used; a built-in name is refused', () => {
    writeFiles(w.ws, {
      '.claude/agents/tester.md': '---\nname: tester\ndescription: Runs the tests\ntools: Read, Bash(npm test:*), Grep, mcp__github__get_issue\nmaxTurns: 7\npermissionMode: bypassPermissions\nmodel: haiku\n---\nRun the tests.\n',
      '.claude/agents/careful.md': '---\nname: careful\ndescription: Anything but writing\ndisallowedTools: Write, Edit\n---\nBe careful.\n',
      '.claude/agents/explore.md': '---\nname: explore\n---\nShadows a built-in.\n',
    });
    const s = skipped();
    const agents = listAgents(w.ws, { onSkip: s.onSkip });
    assert.deepEqual(agents.map((a) => a.name), ['careful', 'tester']);
    const tester = findAgent(agents, 'Tester')!;
    assert.deepEqual(tester.tools, ['tool_search', 'read_file', 'view_image', 'list_dir', 'shell', 'execute_code', 'grep', 'mcp__github__get_issue']);
    assert.equal(tester.maxRounds, 7);
    assert.deepEqual(tester.notes, ['model haiku not used: agents run on the model you chose', 'permissionMode bypassPermissions not used: tools ask as usual']);
    const careful = findAgent(agents, 'careful')!;
    assert.equal(careful.tools, undefined);
    assert.deepEqual(careful.deniedTools, ['write_file', 'edit_file']);
    assert.ok(s.lines.includes("agent not listed: .claude/agents/explore.md: explore is Snowpea's own"));
  });

  it('Roo Code .roomodes, YAML and JSON: slug, whenToUse, role and instructions, groups; an edit group limited by fileRegex gives no write tools; a broken mode is left out alone', () => {
    writeFiles(w.ws, {
      '.roomodes':
        'customModes:\n  - slug: docs-writer\n    name: Docs Writer\n    roleDefinition: You are a technical writer.\n    customInstructions: Use short sentences.\n    whenToUse: Writing docs\n    groups:\n      - read\n      - - edit\n        - fileRegex: \\.md$\n          description: Markdown only\n  - slug: 5\n  - slug: runner\n    roleDefinition: Run things.\n    groups: [read, command, mcp, modes]\n',
    });
    const s = skipped();
    const agents = listAgents(w.ws, { onSkip: s.onSkip });
    assert.deepEqual(agents.map((a) => [a.name, a.description, a.origin]), [
      ['docs-writer', 'Writing docs', '.roomodes (mode 1: docs-writer)'],
      ['runner', '', '.roomodes (mode 3: runner)'],
    ]);
    const docs = agents[0];
    assert.equal(docs.instructions, 'You are a technical writer.\n\nUse short sentences.');
    assert.ok(!docs.tools!.includes('write_file') && !docs.tools!.includes('edit_file'));
    assert.deepEqual(docs.notes, ['edit limited to files matching \\.md$: no write tools (Snowpea does not check file patterns)']);
    assert.deepEqual(agents[1].tools, ['tool_search', 'read_file', 'view_image', 'list_dir', 'grep', 'glob', 'skill_view', 'shell', 'execute_code', 'mcp__*']);
    assert.ok(s.lines.some((l) => l.startsWith('agent not listed: .roomodes (mode 2): slug:')), s.lines.join('\n'));

    writeFiles(w.ws, { '.roomodes': JSON.stringify({ customModes: [{ slug: 'json-mode', roleDefinition: 'From JSON.', groups: ['read'] }] }) });
    assert.deepEqual(listAgents(w.ws).map((a) => [a.name, a.instructions]), [['json-mode', 'From JSON.']]);
    writeFiles(w.ws, { '.roomodes': 'customModes: {' });
    const bad = skipped();
    assert.deepEqual(listAgents(w.ws, { onSkip: bad.onSkip }), []);
    assert.match(bad.lines.join('\n'), /agents not read: \.roomodes is not YAML or JSON with a customModes list/);
  });

  it('skills from .claude/skills, .agents/skills and ~/.claude/skills; .snowpea/skills wins a name', () => {
    const skill = (name: string, d: string) => `---\nname: ${name}\ndescription: ${d}\n---\nbody\n`;
    writeFiles(w.ws, {
      '.claude/skills/pdf/SKILL.md': skill('pdf', 'from .claude'),
      '.agents/skills/lint/SKILL.md': skill('lint', 'from .agents'),
      '.snowpea/skills/pdf/SKILL.md': skill('pdf', 'from .snowpea'),
      [path.join(w.claude, 'skills', 'mine', 'SKILL.md')]: skill('mine', 'from ~/.claude'),
    });
    assert.deepEqual(listSkills(w.ws).map((s) => [s.name, s.description, s.origin]), [
      ['lint', 'from .agents', '.agents/skills'],
      ['mine', 'from ~/.claude', '~/.claude/skills'],
      ['pdf', 'from .snowpea', '.snowpea/skills'],
    ]);
  });

  it('instruction files: .github/copilot-instructions.md and .clinerules as a file or a folder of rules, at the root', () => {
    writeFiles(w.ws, { 'AGENTS.md': 'agents', '.github/copilot-instructions.md': 'copilot', '.clinerules/02-tests.md': 'tests', '.clinerules/01-style.md': 'style', '.clinerules/image.png': 'x', 'pkg/.github/copilot-instructions.md': 'nested: not read' });
    assert.deepEqual(discoverContextFiles(w.ws).map((f) => [f.rel, f.depth, f.text]), [
      ['.clinerules/01-style.md', 0, 'style'],
      ['.clinerules/02-tests.md', 0, 'tests'],
      ['.github/copilot-instructions.md', 0, 'copilot'],
      ['AGENTS.md', 0, 'agents'],
    ]);
    const file = libraryWorldFile(w.ws);
    assert.deepEqual(discoverContextFiles(file).map((f) => f.rel), ['.clinerules']);
  });

  it('writes to the other agents\' prompt files always ask, like AGENTS.md', () => {
    for (const p of ['.claude/commands/x.md', '.claude/settings.json', '.github/prompts/x.prompt.md', '.github/agents/x.agent.md', '.github/chatmodes/x.chatmode.md', '.github/copilot-instructions.md', '.clinerules', '.clinerules/a.md', '.roomodes', '.agents/skills/a/SKILL.md']) {
      assert.ok(protectedReason(p), `${p} is protected`);
    }
    assert.equal(protectedReason('.github/workflows/ci.yml'), undefined);
    assert.equal(protectedReason('docs/prompts/x.md'), undefined);
  });
});

/** A second workspace whose .clinerules is one file. */
function libraryWorldFile(ws: string): string {
  const dir = path.join(ws, 'other');
  writeFiles(dir, { '.clinerules': 'one file of rules' });
  return dir;
}
