import assert from 'node:assert/strict';
import type { AgentEventMessage, HostMessage } from '../../extension/protocol';
import { initialState, restoreState } from '../../webview/src/state/initial';
import { TOOL_OUTPUT_CAP } from '../../webview/src/state/items';
import { chatReducer } from '../../webview/src/state/reducer';
import type { ChatAction, ChatState } from '../../webview/src/state/types';

/** The chat reducer on its own (no browser): the rules the UI tests rely on. */

type EventBody = AgentEventMessage extends infer E ? (E extends AgentEventMessage ? Omit<E, 'sessionId'> : never) : never;

const init: HostMessage = { type: 'init', sessionId: 's1', title: 't', model: 'm', loadedTools: ['read_file'], workspaceTrusted: true, setupNeeded: false };

function run(...actions: Array<ChatAction | EventBody>): ChatState {
  return actions.reduce<ChatState>((s, a) => {
    const action: ChatAction = isEvent(a) ? { type: 'host', msg: { type: 'event', event: { ...a, sessionId: 's1' } as AgentEventMessage } } : a;
    return chatReducer(s, action);
  }, chatReducer(initialState(), { type: 'host', msg: init }));
}

const localTypes = new Set([
  'draft.set',
  'message.sent',
  'stop.requested',
  'retry.requested',
  'tool.toggle',
  'loop.dismissed',
  'approval.answered',
  'ask.answered',
  'attachment.add',
  'attachment.done',
  'attachment.remove',
  'host',
]);
function isEvent(a: ChatAction | EventBody): a is EventBody {
  return !localTypes.has(a.type);
}

const kinds = (s: ChatState) => s.items.map((i) => i.kind);

describe('webview state: chat reducer', () => {
  it('confirms the sent message on turn.start instead of adding it twice', () => {
    const s = run({ type: 'message.sent', text: 'hi' }, { type: 'turn.start', turn: 1, prompt: 'hi' });
    assert.deepEqual(s.items, [{ kind: 'user', id: 'i1', text: 'hi', turn: 1 }], 'confirmed and numbered for its restore action (issue 19)');
    assert.equal(s.running, true);
    assert.equal(s.draft, '');
  });

  it('shows the prompt of a turn this view did not start', () => {
    const s = run({ type: 'turn.start', turn: 1, prompt: 'from the palette' });
    assert.deepEqual(kinds(s), ['user']);
  });

  it('splits assistant text around tool calls and settles everything at turn end', () => {
    const s = run(
      { type: 'turn.start', turn: 1, prompt: 'x' },
      { type: 'text.delta', text: 'a' },
      { type: 'text.delta', text: 'b' },
      { type: 'tool.call', callId: 'c1', tool: 'grep', args: '{}', title: 'grep', summary: '' },
      { type: 'text.delta', text: 'c' },
      { type: 'tool.call', callId: 'c2', tool: 'bash', args: '{}', title: 'bash', summary: '' },
      { type: 'turn.end', reason: 'cancelled', rounds: 2 },
    );
    assert.deepEqual(kinds(s), ['user', 'assistant', 'tool', 'assistant', 'tool', 'notice']);
    assert.equal(s.items[1]?.kind === 'assistant' && s.items[1].text, 'ab');
    assert.ok(s.items.every((i) => !(i.kind === 'assistant' && i.streaming)));
    assert.deepEqual(
      s.items.filter((i) => i.kind === 'tool').map((i) => i.kind === 'tool' && i.status),
      ['stopped', 'stopped'],
    );
    assert.equal(s.running, false);
  });

  it('caps streamed tool output to its tail', () => {
    const big = 'x'.repeat(TOOL_OUTPUT_CAP);
    const s = run({ type: 'tool.call', callId: 'c1', tool: 'bash', args: '{}', title: 'bash', summary: '' }, { type: 'tool.output', callId: 'c1', chunk: big }, { type: 'tool.output', callId: 'c1', chunk: 'END' });
    const tool = s.items.find((i) => i.kind === 'tool');
    assert.ok(tool?.kind === 'tool');
    assert.equal(tool.output.length, TOOL_OUTPUT_CAP);
    assert.ok(tool.output.endsWith('END'));
  });

  it('shows a result whose call it never saw (reloaded mid-tool)', () => {
    const s = run({ type: 'tool.result', callId: 'c9', tool: 'read_file', ok: false, summary: 'missing', errorCode: 'ENOENT' });
    assert.deepEqual(s.items[0], { kind: 'tool', id: 'i1', callId: 'c9', tool: 'read_file', args: '', output: '', status: 'error', summary: 'missing', errorCode: 'ENOENT' });
  });

  it('adds each loaded tool once to the session list and a chip per load', () => {
    const s = run({ type: 'tools.loaded', tools: ['git_diff', 'read_file'] }, { type: 'tools.loaded', tools: ['git_diff'] });
    assert.deepEqual(s.loadedTools, ['read_file', 'git_diff']);
    assert.deepEqual(kinds(s), ['tools.loaded', 'tools.loaded']);
  });

  it('ignores events and transcripts of another session; a new session starts empty', () => {
    const before = run({ type: 'text.delta', text: 'mine' });
    const stale = chatReducer(before, { type: 'host', msg: { type: 'event', event: { type: 'text.delta', sessionId: 'other', text: 'x' } } });
    assert.equal(stale, before);
    const staleReplay = chatReducer(before, { type: 'host', msg: { type: 'transcript', sessionId: 'other', entries: [] } });
    assert.equal(staleReplay, before);
    const next = chatReducer(before, { type: 'host', msg: { ...init, sessionId: 's2' } as HostMessage });
    assert.deepEqual(next.items, []);
    assert.equal(next.session?.id, 's2');
  });

  it('keeps the draft across a new session and across restore', () => {
    const s = run({ type: 'draft.set', text: 'unsent' });
    assert.equal(chatReducer(s, { type: 'host', msg: { ...init, sessionId: 's2' } as HostMessage }).draft, 'unsent');
    const restored = restoreState(JSON.parse(JSON.stringify(s)));
    assert.deepEqual(restored, s);
    assert.deepEqual(restoreState({ version: 0, items: [] }), initialState(), 'another version is dropped');
    assert.deepEqual(restoreState('junk'), initialState());
  });

  it('clears pending approvals when the host says no turn is running', () => {
    const s = run(
      { type: 'host', msg: { type: 'approval.request', id: 'a1', tool: 'write_file', summary: 's' } },
      { type: 'host', msg: { type: 'approval.request', id: 'a1', tool: 'write_file', summary: 's again' } },
    );
    assert.equal(s.approvals.length, 1, 'a re-sent request replaces the old one');
    assert.deepEqual(chatReducer(s, { type: 'host', msg: init }).approvals, []);
  });
});
