/**
 * The chat run as a custom agent (the agent picker, `/agent NAME`; Copilot's agent dropdown, Roo's
 * modes): the agent's instructions lead the role part of the system prompt without the subagent
 * line, its tool list narrows what the chat is offered and may run, the choice is stored with the
 * session and read again from the file when the session is opened, and an agent no longer found
 * (file gone, workspace not trusted) leaves Snowpea's own.
 */
import assert from 'node:assert/strict';
import { createHarness, type Harness } from '../../fixtures/agent-harness';
import { libraryWorld } from './world';

const FILES = {
  '.claude/agents/docs-writer.md': '---\nname: docs-writer\ndescription: Writes the docs\ntools: Read, Grep\n---\nDOCS-WRITER-BODY: write docs only.\n',
};
const toolNames = (body: any): string[] => (body.tools ?? []).map((t: any) => t.function.name);
const systemOf = (body: any): string => body.messages[0].content;

describe('library: the chat runs as a custom agent', () => {
  libraryWorld();
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  async function turn(session: ReturnType<Harness['agent']['newSession']>, text: string): Promise<any> {
    const before = h!.bodies().length;
    await h!.agent.send(session, { text }, new AbortController().signal);
    return h!.bodies()[before];
  }

  it('its instructions without the subagent line, its tools only; a call outside them is refused; back to Snowpea with null', async () => {
    h = await createHarness({ files: FILES });
    assert.deepEqual(h.agent.agents(), [{ name: 'docs-writer', description: 'Writes the docs' }]);
    const session = h.agent.newSession();
    assert.equal(h.agent.setAgent(session, 'docs-writer'), true);

    h.server.enqueue({ toolCalls: [{ name: 'write_file', arguments: JSON.stringify({ path: 'x.md', content: 'x' }) }] }, { text: 'done' });
    const first = await turn(session, 'write the docs');
    assert.match(systemOf(first), /You run as the docs-writer agent\. Its instructions:\nDOCS-WRITER-BODY: write docs only\./);
    assert.doesNotMatch(systemOf(first), /You are a subagent/);
    const offered = toolNames(first);
    assert.ok(offered.includes('read_file') && offered.includes('grep'), offered.join());
    for (const name of ['write_file', 'edit_file', 'shell']) assert.ok(!offered.includes(name), `${name} is not offered`);
    const refused = h.bodies().at(-1).messages.find((m: any) => m.role === 'tool').content;
    assert.match(refused, /write_file is not among the tools the docs-writer agent's definition allows; use the tools you have, or tell the user what you could not do/);

    assert.equal(h.agent.setAgent(session, 'no-such-agent'), false);
    assert.equal(session.customAgent?.name, 'docs-writer', 'an unknown name changes nothing');

    assert.equal(h.agent.setAgent(session, null), true);
    h.server.enqueue({ text: 'plain' });
    const back = await turn(session, 'and now?');
    assert.doesNotMatch(systemOf(back), /You run as the docs-writer agent/);
    assert.ok(toolNames(back).includes('write_file'), 'Snowpea\'s own tools again');
  });

  it('stored with the session: opened again it runs as the agent, its file read again; with the workspace no longer trusted it runs as Snowpea, and the log says why', async () => {
    let trusted = true;
    h = await createHarness({ files: FILES, workspaceTrusted: () => trusted });
    const session = h.agent.newSession();
    h.agent.setAgent(session, 'docs-writer');
    h.server.enqueue({ text: 'one' });
    await turn(session, 'first');

    const again = h.reopen().openSession(session.id)!;
    assert.equal(again.customAgent?.name, 'docs-writer');
    assert.match(again.customAgent!.instructions, /DOCS-WRITER-BODY/);

    trusted = false;
    const untrusted = h.reopen().openSession(session.id)!;
    assert.equal(untrusted.customAgent, undefined);
    assert.equal(untrusted.role, 'default');
    assert.ok(h.log.lines.some((l) => /ran as the docs-writer agent, which is not found now/.test(l)), h.log.lines.join('\n'));
  });

  it('a subagent session cannot be switched', async () => {
    h = await createHarness({ files: FILES });
    const parent = h.agent.newSession();
    const child = h.agent.newSession({ parentId: parent.id, role: 'explore' });
    assert.equal(h.agent.setAgent(child, 'docs-writer'), false);
    assert.equal(child.role, 'explore');
  });
});
