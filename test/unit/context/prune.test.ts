import assert from 'node:assert/strict';
import { pruneOldToolOutputs, viewPrunedStub } from '../../../extension/core/context/prune';
import type { Message } from '../../../extension/core/conversation/messages';
import { createHarness, type Harness } from '../../fixtures/agent-harness';
import { PruneCache } from '../../../extension/core/context/prune-cache';
import { builtinPruneRule, pruneRuleOf } from '../../../extension/core/context/prune-rule';
import { skillViewTool } from '../../../extension/core/tools/core/skill-view';

const shell = (i: number, size: number) => ({ name: 'shell', arguments: JSON.stringify({ command: `head -c ${size} /dev/zero | tr '\\0' '${String.fromCharCode(97 + (i % 26))}'; echo; echo r${i}` }) });

describe('pruning old tool outputs', () => {
  let h: Harness;
  afterEach(async () => h && (await h.close()));

  it('replaces results older than keepToolRounds in the request only; state.db keeps every byte', async () => {
    h = await createHarness();
    h.server.enqueue(...Array.from({ length: 8 }, (_, i) => ({ toolCalls: [shell(i, 3000)] })), { text: 'done' });
    const s = h.agent.newSession();
    await h.agent.runTurn(s, 'go', new AbortController().signal);
    const last = h.bodies().at(-1).messages.filter((m: any) => m.role === 'tool').map((m: any) => m.content);
    assert.equal(last.length, 8);
    // 8 tool rounds, keep 6: the first two are stubs with their exact sizes.
    const stored = h.store.getMessages(s.id).filter((m) => m.role === 'tool') as Array<Extract<Message, { role: 'tool' }>>;
    assert.equal(last[0], `[earlier shell output pruned — ${stored[0].content.length} chars; re-run the tool if you need it again]`);
    assert.equal(last[1], `[earlier shell output pruned — ${stored[1].content.length} chars; re-run the tool if you need it again]`);
    for (let i = 2; i < 8; i++) assert.equal(last[i], stored[i].content, `round ${i + 1} is sent verbatim`);
    // The stored transcript and the export keep everything.
    assert.ok(stored[0].content.length > 3000);
    assert.match(stored[0].content, /r0/);
    assert.match(h.store.exportSession(s.id, 'json'), /r0/);
    // The in-memory session is untouched too.
    assert.equal((s.messages.find((m) => m.role === 'tool') as any).content, stored[0].content);
  });

  it('keeps results shorter than their stub, honours keepToolRounds and pruneToolOutputs=false', async () => {
    h = await createHarness({ settings: { 'agent.keepToolRounds': 1 } });
    h.server.enqueue({ toolCalls: [{ name: 'shell', arguments: '{"command":"echo hi"}' }] }, { toolCalls: [shell(1, 500)] }, { toolCalls: [shell(2, 500)] }, { text: 'done' });
    await h.agent.runTurn(h.agent.newSession(), 'go', new AbortController().signal);
    const last = h.bodies().at(-1).messages.filter((m: any) => m.role === 'tool').map((m: any) => m.content);
    assert.match(last[0], /hi/, 'short result stays');
    assert.match(last[1], /^\[earlier shell output pruned/);
    assert.match(last[2], /r2/);
    await h.close();

    h = await createHarness({ settings: { 'agent.keepToolRounds': 1, 'agent.pruneToolOutputs': false } });
    h.server.enqueue({ toolCalls: [shell(1, 500)] }, { toolCalls: [shell(2, 500)] }, { toolCalls: [shell(3, 500)] }, { text: 'done' });
    await h.agent.runTurn(h.agent.newSession(), 'go', new AbortController().signal);
    const verbatim = h.bodies().at(-1).messages.filter((m: any) => m.role === 'tool').map((m: any) => m.content);
    assert.doesNotMatch(verbatim.join(''), /pruned/);
  });

  it('skill_view bodies follow skills.protectRecentViews, not the round cutoff', () => {
    const body = (n: string) => `# ${n}\n` + 'step\n'.repeat(100);
    const messages: Message[] = [{ role: 'user', content: 'go' }];
    for (const [i, name] of ['alpha', 'beta', 'gamma', 'delta'].entries()) {
      messages.push({ role: 'assistant', content: '', toolCalls: [{ id: `k${i}`, name: 'skill_view', arguments: JSON.stringify({ name }) }] });
      messages.push({ role: 'tool', toolCallId: `k${i}`, toolName: 'skill_view', ok: true, content: body(name) });
    }
    for (let i = 0; i < 10; i++) {
      messages.push({ role: 'assistant', content: '', toolCalls: [{ id: `s${i}`, name: 'shell', arguments: '{}' }] });
      messages.push({ role: 'tool', toolCallId: `s${i}`, toolName: 'shell', ok: true, content: 'x'.repeat(300) });
    }
    const copy = structuredClone(messages);
    const r = pruneOldToolOutputs(messages, { enabled: true, keepToolRounds: 6, protectRecentViews: 3 });
    const skills = r.messages.filter((m) => m.role === 'tool' && m.toolName === 'skill_view').map((m) => (m as any).content);
    assert.equal(skills[0], '[SKILL_PRUNED: alpha; call skill_view("alpha") to reload]');
    assert.equal(skills[1], body('beta'), 'the newest three stay whole even though their rounds are old');
    assert.equal(skills[3], body('delta'));
    const shells = r.messages.filter((m) => m.role === 'tool' && m.toolName === 'shell').map((m) => (m as any).content);
    assert.equal(shells.filter((c: string) => c.startsWith('[earlier shell output pruned — 300 chars')).length, 4);
    assert.deepEqual(messages, copy, 'the input transcript is never modified');
    assert.ok(r.savedChars > 0);
  });

  it("which results are kept by views is the tool's prune trait, not its name (house II item 2)", () => {
    assert.equal(skillViewTool.traits.prune, 'recent-views');
    assert.equal(builtinPruneRule('skill_view'), 'recent-views');
    assert.equal(builtinPruneRule('shell'), 'rounds');
    assert.equal(builtinPruneRule('mcp__docs__guide'), 'rounds', 'a tool the built-ins do not know is pruned by rounds');
    // An MCP tool that declares the trait: its bodies are kept for the newest views, like skill_view's.
    const traits: Record<string, { prune?: 'rounds' | 'recent-views' }> = { mcp__docs__guide: { prune: 'recent-views' }, shell: {} };
    const pruneRule = pruneRuleOf((name) => traits[name]);
    const body = 'guide\n'.repeat(100);
    const messages: Message[] = [{ role: 'user', content: 'go' }];
    for (const [i, name] of ['one', 'two'].entries()) {
      messages.push({ role: 'assistant', content: '', toolCalls: [{ id: `g${i}`, name: 'mcp__docs__guide', arguments: JSON.stringify({ name }) }] });
      messages.push({ role: 'tool', toolCallId: `g${i}`, toolName: 'mcp__docs__guide', ok: true, content: body });
    }
    for (let i = 0; i < 4; i++) {
      messages.push({ role: 'assistant', content: '', toolCalls: [{ id: `s${i}`, name: 'shell', arguments: '{}' }] });
      messages.push({ role: 'tool', toolCallId: `s${i}`, toolName: 'shell', ok: true, content: 'x'.repeat(300) });
    }
    const opts = { enabled: true, keepToolRounds: 2, protectRecentViews: 1, pruneRule };
    const guides = (ms: Message[]) => ms.filter((m) => m.role === 'tool' && m.toolName === 'mcp__docs__guide').map((m) => (m as any).content);
    const pure = pruneOldToolOutputs(messages, opts);
    assert.deepEqual(guides(pure.messages), ['[VIEW_PRUNED: mcp__docs__guide; call mcp__docs__guide({"name":"one"}) to reload]', body], 'the newest view stays whole though its round is old; the stub names the tool itself and its own arguments, never skill_view');
    assert.deepEqual(guides(new PruneCache().prune('s', messages, opts).messages), guides(pure.messages), 'the incremental cache agrees');
    // Arguments too long to repeat, or a result whose call is not in the transcript: the stub still names the tool.
    assert.equal(viewPrunedStub('mcp__docs__guide', JSON.stringify({ q: 'x'.repeat(300) })), '[VIEW_PRUNED: mcp__docs__guide; call mcp__docs__guide again with the same arguments to reload]');
    assert.equal(viewPrunedStub('mcp__docs__guide', undefined), '[VIEW_PRUNED: mcp__docs__guide; call mcp__docs__guide again to reload]');
    assert.equal(viewPrunedStub('skill_view', '{"name":"one"}'), '[SKILL_PRUNED: one; call skill_view("one") to reload]', "skill_view's stub keeps its words");
    // Without the trait (the built-in rule), the same tool is pruned by its round.
    assert.match(guides(pruneOldToolOutputs(messages, { ...opts, pruneRule: undefined }).messages)[1], /^\[earlier mcp__docs__guide output pruned/);
  });

  it('replaces images carried for old tool rounds with a text stub', () => {
    const messages: Message[] = [
      { role: 'user', content: 'look' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'v1', name: 'view_image', arguments: '{"path":"a.png"}' }] },
      { role: 'tool', toolCallId: 'v1', toolName: 'view_image', ok: true, content: 'image attached: a.png' },
      { role: 'user', attachedBy: 'tools', content: [{ type: 'text', text: 'image attached: a.png' }, { type: 'image', imageId: 'i1', name: 'a.png', mime: 'image/png', width: 10, height: 10 }] },
      { role: 'assistant', content: '', toolCalls: [{ id: 'g1', name: 'glob', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'g1', toolName: 'glob', ok: true, content: 'x' },
    ];
    const r = pruneOldToolOutputs(messages, { enabled: true, keepToolRounds: 1, protectRecentViews: 3 });
    const carrier = r.messages[3] as any;
    assert.deepEqual(carrier.content[1], { type: 'text', text: '[earlier image a.png pruned; call view_image again if you need it]' });
    assert.equal((messages[3] as any).content[1].type, 'image');
  });
});
