/**
 * Issue 30 item 4, the trust rules of the files other agents use: an untrusted workspace's are not
 * read (the user's own are), a file or folder linked out of the workspace is never read, and an
 * agent file can only narrow what a subagent may do, never widen tools or approvals.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHarness, type Harness } from '../../fixtures/agent-harness';
import { libraryWorld, tempDir, writeFiles } from './world';

const SECRET = 'SECRET-OUTSIDE-7f3a';
const isChild = (body: any) => /You have \d+ tool rounds for this task\./.test(body.messages[0].content);
const toolNames = (body: any): string[] => (body.tools ?? []).map((t: any) => t.function.name);
const toolResults = (body: any): string[] => body.messages.filter((m: any) => m.role === 'tool').map((m: any) => m.content);
const delegate = (args: Record<string, unknown>) => ({ name: 'delegate_task', arguments: JSON.stringify(args) });

/** The other agents' files, one of each. */
const PEER_FILES: Record<string, string> = {
  'AGENTS.md': 'AGENTS-ROOT: run make.',
  '.claude/commands/fix.md': '---\ndescription: Fix it\n---\nCLAUDE-COMMAND-BODY $ARGUMENTS',
  '.github/prompts/review.prompt.md': 'COPILOT-PROMPT-BODY',
  '.snowpea/commands/ours.md': 'SNOWPEA-COMMAND-BODY',
  '.github/agents/docs.agent.md': '---\ndescription: DOCS-AGENT-DESCRIPTION\n---\nWrite docs.',
  '.roomodes': 'customModes:\n  - slug: roo-mode\n    roleDefinition: ROO-ROLE\n    whenToUse: ROO-WHEN\n    groups: [read]\n',
  '.claude/skills/pdf/SKILL.md': '---\nname: pdf\ndescription: CLAUDE-SKILL\n---\nbody',
  '.github/copilot-instructions.md': 'COPILOT-INSTRUCTIONS',
  '.clinerules': 'CLINE-RULES',
};

describe('library: trust rules (issue 30 item 4)', () => {
  const w = libraryWorld();
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  async function firstRequest(text: string): Promise<any> {
    h!.server.enqueue({ text: 'ok' });
    const before = h!.bodies().length;
    await h!.agent.send(h!.agent.newSession(), { text }, new AbortController().signal);
    return h!.bodies()[before];
  }

  it('an untrusted workspace: none of its commands, agents, skills or instruction files are read (Snowpea\'s own formats included); the user\'s own commands are; trusting it reads them', async () => {
    let trusted = false;
    writeFiles(w.ws, { [path.join(w.claude, 'commands', 'mine.md')]: 'USER-COMMAND-BODY $ARGUMENTS' });
    h = await createHarness({ files: PEER_FILES, workspaceTrusted: () => trusted });
    const lib = h.agent.library;
    assert.deepEqual(lib.commands().map((c) => c.name), ['mine']);
    assert.deepEqual(lib.agents(), []);
    assert.deepEqual(lib.skills(), []);
    assert.deepEqual(lib.instructionFiles().map((f) => f.rel), [], 'not even AGENTS.md: Restricted Mode reads no instructions from the repository');

    const sent = await firstRequest('/fix the bug');
    const prompt = sent.messages[0].content as string;
    for (const marker of ['COPILOT-INSTRUCTIONS', 'CLINE-RULES', 'CLAUDE-SKILL', 'DOCS-AGENT-DESCRIPTION', 'ROO-WHEN', 'Agents (']) assert.ok(!prompt.includes(marker), `${marker} is not in the prompt`);
    assert.ok(!prompt.includes('AGENTS-ROOT'), 'AGENTS.md is not in the prompt either');
    assert.equal(sent.messages.at(-1).content, '/fix the bug', 'an untrusted workspace\'s command is not expanded: the message goes as typed');
    const mine = await firstRequest('/mine go');
    assert.equal(mine.messages.at(-1).content, '/mine go\n[/mine: ~/.claude/commands/mine.md]\nUSER-COMMAND-BODY go', 'the user\'s own command is');

    trusted = true;
    assert.deepEqual(lib.commands().map((c) => c.name), ['fix', 'mine', 'ours', 'review']);
    assert.deepEqual(lib.agents().map((a) => a.name), ['docs', 'roo-mode']);
    const now = await firstRequest('/fix the bug');
    const trustedPrompt = now.messages[0].content as string;
    for (const marker of ['AGENTS-ROOT', 'COPILOT-INSTRUCTIONS', 'CLINE-RULES', 'CLAUDE-SKILL', 'DOCS-AGENT-DESCRIPTION', 'ROO-WHEN']) assert.ok(trustedPrompt.includes(marker), `${marker} is in the prompt once trusted`);
    assert.equal(now.messages.at(-1).content, '/fix the bug\n[/fix: .claude/commands/fix.md]\nCLAUDE-COMMAND-BODY the bug');
  });

  it('a file or folder linked out of the workspace is not read: commands, prompt files, agents, .roomodes, skills, instruction files', async () => {
    const outside = tempDir('sp-lib-outside-');
    const secretFile = path.join(outside, 'secret.md');
    fs.writeFileSync(secretFile, `---\nname: stolen\ndescription: ${SECRET}\n---\n${SECRET}\n`);
    fs.mkdirSync(path.join(outside, 'dir', 'stolen'), { recursive: true });
    fs.writeFileSync(path.join(outside, 'dir', 'stolen.md'), SECRET);
    fs.writeFileSync(path.join(outside, 'dir', 'stolen', 'SKILL.md'), `---\nname: stolen\ndescription: ${SECRET}\n---\n`);
    fs.writeFileSync(path.join(outside, 'modes.yaml'), `customModes:\n  - slug: stolen\n    roleDefinition: ${SECRET}\n    groups: [read]\n`);
    h = await createHarness({ files: { '.github/prompts/ok.prompt.md': 'fine' } });
    const ws = h.workspace;
    const link = (target: string, at: string) => {
      fs.mkdirSync(path.dirname(path.join(ws, at)), { recursive: true });
      fs.symlinkSync(target, path.join(ws, at));
    };
    link(path.join(outside, 'dir'), '.claude/commands');
    link(secretFile, '.github/prompts/evil.prompt.md');
    link(secretFile, '.github/agents/evil.agent.md');
    link(path.join(outside, 'modes.yaml'), '.roomodes');
    link(path.join(outside, 'dir'), '.agents/skills');
    link(path.join(outside, 'dir'), '.clinerules');
    link(secretFile, '.github/copilot-instructions.md');

    const lib = h.agent.library;
    assert.deepEqual(lib.commands().map((c) => c.name), ['ok']);
    assert.deepEqual(lib.agents(), []);
    assert.deepEqual(lib.skills(), []);
    assert.deepEqual(lib.instructionFiles(), []);
    const sent = await firstRequest('/evil now');
    assert.ok(!JSON.stringify(sent).includes(SECRET), 'nothing from outside reaches the request');
    const logged = h.log.lines.join('\n');
    for (const name of ['.claude/commands', 'evil.prompt.md', 'evil.agent.md', '.roomodes', '.agents/skills', '.clinerules', 'copilot-instructions.md']) assert.ok(logged.includes(name), `the skip of ${name} is logged:\n${logged}`);
  });

  it('an agent cannot widen tools: its list narrows a subagent (shell refused, tool_search finds only what it allows), and delegate_task or writes it lists stay refused or asked', async () => {
    h = await createHarness({
      files: {
        '.claude/agents/reader.md': '---\nname: reader\ndescription: Reads\ntools: Read, Grep\n---\nREADER-INSTRUCTIONS',
        '.github/agents/writer.agent.md': "---\ndescription: Writes\ntools: ['edit', 'agent', 'execute']\npermissionMode: bypassPermissions\n---\nWRITER-INSTRUCTIONS",
        '.claude/agents/quick.md': '---\nname: quick\ndescription: Quick\nmaxTurns: 2\n---\nQUICK',
      },
      approve: 'deny',
    });
    let step = 0;
    h.server.setResponder((body) => {
      if (isChild(body)) {
        const system: string = body.messages[0].content;
        const results = toolResults(body).length;
        if (system.includes('QUICK')) return { text: 'quick done' };
        if (system.includes('READER-INSTRUCTIONS')) {
          if (results === 0) return { toolCalls: [{ name: 'shell', arguments: '{"command":"echo hi"}' }, { name: 'tool_search', arguments: '{"query":"select:git_status,list_dir"}' }] };
          return { text: 'reader done' };
        }
        if (results === 0) return { toolCalls: [{ name: 'write_file', arguments: '{"path":"out.txt","content":"x"}' }, delegate({ task: 'nested' })] };
        return { text: 'writer done' };
      }
      step++;
      if (step === 1) return { toolCalls: [delegate({ task: 'Read a.', agent: 'reader' })] };
      if (step === 2) return { toolCalls: [delegate({ task: 'Write out.txt.', agent: 'Writer' })] };
      if (step === 3) return { toolCalls: [delegate({ task: 'Be quick.', agent: 'quick', max_rounds: 10 }), delegate({ task: 'x', agent: 'nobody' })] };
      return { text: 'all done' };
    });
    const r = await h.agent.runTurn(h.agent.newSession(), 'go', new AbortController().signal);
    assert.equal(r.reason, 'done');
    const bodies = h.bodies();

    // reader: Read and Grep only (tool_search to load among them); shell refused; tool_search cannot load git_status.
    const reader = bodies.filter((b) => isChild(b) && b.messages[0].content.includes('READER-INSTRUCTIONS'));
    assert.match(reader[0].messages[0].content, /You run as the reader agent\. Its instructions:\nREADER-INSTRUCTIONS/);
    assert.deepEqual(toolNames(reader[0]).sort(), ['grep', 'read_file', 'tool_search', 'view_image']);
    const [shell, search] = toolResults(reader[1]);
    assert.match(shell, /policy_blocked.*shell is not among the tools the reader agent's definition allows/s);
    assert.match(search, /^loaded list_dir;[\s\S]*not loadable here \(.*\): git_status$/);
    assert.deepEqual(toolNames(reader[1]).sort(), ['grep', 'list_dir', 'read_file', 'tool_search', 'view_image'], 'list_dir (Read) loads; git_status does not');

    // writer: its list names edit, agent and execute, and says bypassPermissions: the write still asks (denied here), delegate_task is still refused to a subagent.
    const writer = bodies.filter((b) => isChild(b) && b.messages[0].content.includes('WRITER-INSTRUCTIONS'));
    assert.ok(!toolNames(writer[0]).includes('delegate_task'));
    const [write, nested] = toolResults(writer[1]);
    assert.match(write, /denied/);
    assert.ok(!fs.existsSync(path.join(h.workspace, 'out.txt')), 'the write did not happen');
    assert.match(nested, /not available to a subagent/);

    // quick: maxTurns 2 lowers max_rounds 10; an unknown agent is named with the known ones.
    const quick = bodies.find((b) => isChild(b) && b.messages[0].content.includes('QUICK'));
    assert.match(quick.messages[0].content, /You have 2 tool rounds for this task\./);
    const last = toolResults(bodies.filter((b) => !isChild(b)).at(-1));
    assert.match(last.at(-1)!, /invalid_arguments.*there is no agent named "nobody"; agents: general, explore, reviewer, quick, reader, writer\./s);
  });

  it('the parent\'s prompt lists custom agents by name and description; a plan-mode parent\'s custom child stays read-only whatever its list says', async () => {
    h = await createHarness({ files: { '.github/agents/writer.agent.md': "---\ndescription: Writes files\ntools: ['edit']\n---\nWRITER" } });
    let step = 0;
    h.server.setResponder((body) => {
      if (isChild(body)) return toolResults(body).length ? { text: 'child done' } : { toolCalls: [{ name: 'write_file', arguments: '{"path":"p.txt","content":"x"}' }] };
      return ++step === 1 ? { toolCalls: [delegate({ task: 'write p.txt', agent: 'writer' })] } : { text: 'done' };
    });
    const s = h.agent.newSession();
    h.agent.setMode(s, 'plan');
    await h.agent.runTurn(s, 'go', new AbortController().signal);
    const bodies = h.bodies();
    assert.match(bodies[0].messages[0].content, /Agents \(delegate_task agent names, besides general, explore and reviewer\):\n- writer: Writes files/);
    const child = bodies.filter(isChild);
    assert.match(toolResults(child[1])[0], /mode_blocked/);
    assert.ok(!fs.existsSync(path.join(h.workspace, 'p.txt')));
  });
});
