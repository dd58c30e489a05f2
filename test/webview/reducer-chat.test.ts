import assert from 'node:assert/strict';
import type { AgentEventMessage, HostMessage, OutgoingImage } from '../../extension/protocol';
import { initialState, restoreState } from '../../webview/src/state/initial';
import { METER_HISTORY } from '../../webview/src/state/meters';
import { chatReducer } from '../../webview/src/state/reducer';
import { canRetry } from '../../webview/src/state/selectors';
import type { ChatAction, ChatState } from '../../webview/src/state/types';

/** The reducer rules added for the full chat (attachments, meters, retry, tool cards), without a browser. */

const init: HostMessage = { type: 'init', sessionId: 's1', title: 't', model: 'm', loadedTools: [], workspaceTrusted: true, setupNeeded: false };
const event = (e: Record<string, unknown>, at?: number): ChatAction => ({
  type: 'host',
  msg: { type: 'event', event: { ...e, sessionId: 's1' } as AgentEventMessage },
  ...(at !== undefined ? { at } : {}),
});
const host = (msg: HostMessage, at?: number): ChatAction => ({ type: 'host', msg, ...(at !== undefined ? { at } : {}) });
const run = (...actions: ChatAction[]): ChatState => actions.reduce(chatReducer, chatReducer(initialState(), host(init)));
const image: OutgoingImage = { name: 'a.png', mime: 'image/png', dataBase64: 'iVBORw0KGgo=', width: 2, height: 1 };

describe('webview state: attachments, meters, retry and tool cards', () => {
  it('composer.insert (Attach File/Image...) appends a mention to the draft, keeping what was typed', () => {
    let s = run({ type: 'draft.set', text: 'look at' }, host({ type: 'composer.insert', text: '@src/a.ts ' }));
    assert.equal(s.draft, 'look at @src/a.ts ');
    s = chatReducer(s, host({ type: 'composer.insert', text: '@"my shot.png" ' }));
    assert.equal(s.draft, 'look at @src/a.ts @"my shot.png" ');
    assert.equal(run(host({ type: 'composer.insert', text: '@x ' })).draft, '@x ');
  });

  it('keeps attachments in order, drops a late result for a removed one, and clears them on send', () => {
    let s = run(
      { type: 'attachment.add', id: 'x1', name: 'a.png', size: 10 },
      { type: 'attachment.add', id: 'x2', name: 'b.png', size: 20 },
      { type: 'attachment.done', id: 'x1', result: { id: 'x1', name: 'a.png', size: 10, status: 'ready', image } },
      { type: 'attachment.remove', id: 'x2' },
    );
    const before = s;
    s = chatReducer(s, { type: 'attachment.done', id: 'x2', result: { id: 'x2', name: 'b.png', size: 20, status: 'error', error: 'late' } });
    assert.equal(s, before, 'a removed attachment stays removed');
    assert.deepEqual(
      s.attachments.map((a) => [a.id, a.status]),
      [['x1', 'ready']],
    );
    s = chatReducer(s, { type: 'message.sent', text: '', images: [{ name: 'a.png', mime: 'image/png', width: 2, height: 1 }] });
    assert.deepEqual(s.attachments, []);
    assert.deepEqual(s.items.at(-1), { kind: 'user', id: 'i1', text: '', pending: true, images: [{ name: 'a.png', mime: 'image/png', width: 2, height: 1 }] });
  });

  it('restores a half-prepared attachment as an error and fills fields an older saved state lacks', () => {
    const s = run({ type: 'attachment.add', id: 'x1', name: 'a.png', size: 10 });
    const saved = JSON.parse(JSON.stringify(s));
    delete saved.meters;
    delete saved.session.supportsImages;
    const restored = restoreState(saved);
    assert.equal(restored.attachments[0]?.status, 'error');
    assert.match(restored.attachments[0]?.status === 'error' ? restored.attachments[0].error : '', /still being prepared/);
    assert.deepEqual(restored.meters, []);
    assert.equal(restored.session?.supportsImages, true);
    assert.equal(run(host({ ...init, supportsImages: false } as HostMessage)).session?.supportsImages, false);
  });

  it('merges usage and the host meter of the same round in either order, one entry per round, capped', () => {
    let s = run(
      event({ type: 'usage', round: 1, usage: { promptTokens: 100, completionTokens: 5, cachedTokens: 0 } }),
      host({ type: 'meter', sessionId: 's1', round: 2, promptTokens: 200, cachedTokens: 150, prunedChars: 900 }),
      event({ type: 'usage', round: 2, usage: { promptTokens: 201, completionTokens: 7, cachedTokens: 150 } }),
    );
    assert.deepEqual(s.meters, [
      { round: 1, promptTokens: 100, cachedTokens: 0, completionTokens: 5 },
      { round: 2, promptTokens: 201, cachedTokens: 150, prunedChars: 900, completionTokens: 7 },
    ]);
    assert.equal(chatReducer(s, host({ type: 'meter', sessionId: 'other', round: 3, promptTokens: 1, cachedTokens: 0 })), s, 'another session');
    for (let r = 3; r < 3 + METER_HISTORY; r++) s = chatReducer(s, event({ type: 'usage', round: r, usage: { promptTokens: r, completionTokens: 0, cachedTokens: 0 } }));
    assert.equal(s.meters.length, METER_HISTORY);
    assert.equal(s.meters.at(-1)?.round, 2 + METER_HISTORY);
    assert.deepEqual(chatReducer(s, host({ ...init, sessionId: 's2' } as HostMessage)).meters, [], 'a new session starts without meters');
  });

  it('times tool calls from arrival stamps and keeps the result text the host adds', () => {
    const s = run(
      event({ type: 'tool.call', callId: 'c1', tool: 'shell', args: '{}', title: 'shell', summary: '' }, 1000),
      event({ type: 'tool.result', callId: 'c1', tool: 'shell', ok: true, summary: 'ok', result: 'all output' }, 4500),
      event({ type: 'tool.call', callId: 'c2', tool: 'shell', args: '{}', title: 'shell', summary: '' }, 5000),
      event({ type: 'turn.end', reason: 'cancelled', rounds: 1 }, 6000),
    );
    const [c1, c2] = s.items.filter((i) => i.kind === 'tool');
    assert.deepEqual([c1?.kind === 'tool' && [c1.startedAt, c1.endedAt, c1.result]], [[1000, 4500, 'all output']]);
    assert.deepEqual([c2?.kind === 'tool' && [c2.status, c2.startedAt, c2.endedAt]], [['stopped', 5000, 6000]]);
    const toggled = chatReducer(s, { type: 'tool.toggle', id: c1?.id ?? '' });
    assert.equal(toggled.items.find((i) => i.id === c1?.id)?.kind === 'tool' && (toggled.items.find((i) => i.id === c1?.id) as { expanded?: boolean }).expanded, true);
  });

  it('offers retry on the latest turn only, and does not repeat the retried prompt', () => {
    let s = run(
      { type: 'message.sent', text: 'explain' },
      event({ type: 'turn.start', turn: 1, prompt: 'explain' }),
      event({ type: 'error', message: '503', kind: 'server' }),
    );
    const errorId = s.items.at(-1)?.id ?? '';
    assert.equal(canRetry(s, errorId), false, 'not while running');
    s = chatReducer(s, event({ type: 'turn.end', reason: 'error', rounds: 1 }));
    assert.equal(canRetry(s, errorId), true);
    s = chatReducer(s, { type: 'retry.requested' });
    assert.equal(s.retrying, true);
    assert.equal(canRetry(s, errorId), false, 'answered once');
    s = chatReducer(s, event({ type: 'turn.start', turn: 2, prompt: 'explain' }));
    assert.deepEqual(
      s.items.filter((i) => i.kind === 'user').map((i) => i.kind === 'user' && i.text),
      ['explain'],
    );
    assert.equal(s.retrying, false);
    const later = chatReducer(chatReducer(s, event({ type: 'turn.end', reason: 'done', rounds: 1 })), { type: 'message.sent', text: 'next' });
    assert.equal(canRetry(later, errorId), false, 'a newer prompt came after the error');
    const maxRounds = run(event({ type: 'error', message: 'stopped after 50 rounds', kind: 'max_rounds' }));
    assert.equal(canRetry(maxRounds, maxRounds.items.at(-1)?.id ?? ''), false, 'the round limit is not a provider error');
  });

  it('keeps the host files answer and records approvals that always ask', () => {
    const s = run(
      host({ type: 'files.result', query: 'ap', paths: ['src/app.ts'] }),
      host({ type: 'approval.request', id: 'a1', tool: 'write_file', summary: 'write .env', alwaysAsk: true }),
    );
    assert.deepEqual(s.fileResults, { query: 'ap', paths: ['src/app.ts'] });
    assert.deepEqual(s.approvals, [{ id: 'a1', tool: 'write_file', summary: 'write .env', alwaysAsk: true }]);
    assert.equal(restoreState(JSON.parse(JSON.stringify(s))).fileResults, null, 'a stale answer is not restored');
  });
});

describe('webview state: pruned results, replayed chips and the first message of a new chat', () => {
  const stub = (n: number) => `[earlier shell output pruned — ${n} chars; re-run the tool if you need it again]`;
  const meter = (round: number, prunedCalls?: Array<{ callId: string; stub: string }>): ChatAction =>
    host({ type: 'meter', sessionId: 's1', round, promptTokens: 10, cachedTokens: 0, ...(prunedCalls ? { prunedCalls } : {}) });
  const prunedOf = (s: ChatState) => s.items.flatMap((i) => (i.kind === 'tool' ? [[i.callId, i.prunedStub ?? null, i.result ?? null]] : []));

  it('marks the cards a meter names as pruned, keeps the full result, and never takes a mark away', () => {
    let s = run(
      event({ type: 'tool.call', callId: 'c1', tool: 'shell', args: '{}', title: 'shell', summary: '' }),
      event({ type: 'tool.result', callId: 'c1', tool: 'shell', ok: true, summary: 'ok', result: 'a'.repeat(300) }),
      event({ type: 'tool.call', callId: 'c2', tool: 'shell', args: '{}', title: 'shell', summary: '' }),
      event({ type: 'tool.result', callId: 'c2', tool: 'shell', ok: true, summary: 'ok', result: 'b'.repeat(400) }),
      meter(5, [{ callId: 'c1', stub: stub(300) }, { callId: 'gone', stub: stub(1) }]),
    );
    assert.deepEqual(prunedOf(s), [
      ['c1', stub(300), 'a'.repeat(300)],
      ['c2', null, 'b'.repeat(400)],
    ]);
    assert.deepEqual(s.meters, [{ round: 5, promptTokens: 10, cachedTokens: 0 }], 'the calls mark cards; the meter keeps counts');
    s = chatReducer(s, meter(6, [{ callId: 'c2', stub: stub(400) }]));
    s = chatReducer(s, meter(7));
    assert.deepEqual(prunedOf(s), [
      ['c1', stub(300), 'a'.repeat(300)],
      ['c2', stub(400), 'b'.repeat(400)],
    ]);
    const entries = [
      { role: 'tool' as const, callId: 'c1', tool: 'shell', args: '{}', title: 'shell', summary: 'ok', result: 'a'.repeat(300), ok: true },
      { role: 'tool' as const, callId: 'c2', tool: 'shell', args: '{}', title: 'shell', summary: 'ok', result: 'b'.repeat(400), ok: true },
    ];
    s = chatReducer(s, host({ type: 'transcript', sessionId: 's1', entries }));
    assert.deepEqual(prunedOf(s).map(([, p]) => p), [stub(300), stub(400)], 'a replay keeps the marks');
    assert.deepEqual(prunedOf(restoreState(JSON.parse(JSON.stringify(s)))), prunedOf(s), 'and so does setState/getState');
    assert.deepEqual(prunedOf(chatReducer(s, host({ ...init, sessionId: 's2' } as HostMessage))), [], 'another session starts clean');
  });

  it('rebuilds the loaded-tools chips of a replay where they were', () => {
    const s = run(
      host({
        type: 'transcript',
        sessionId: 's1',
        entries: [
          { role: 'user', text: 'commit it' },
          { role: 'tool', callId: 'c1', tool: 'tool_search', args: '{}', title: 'tool_search', summary: 'loaded git_diff, git_commit; callable from your next round', ok: true },
          { role: 'tools.loaded', tools: ['git_diff', 'git_commit'] },
          { role: 'tool', callId: 'c2', tool: 'git_diff', args: '{}', title: 'git diff', summary: 'diff', ok: true },
        ],
      }),
    );
    assert.deepEqual(
      s.items.map((i) => (i.kind === 'tools.loaded' ? `chip ${i.tools.join(', ')}` : i.kind)),
      ['user', 'tool', 'chip git_diff, git_commit', 'tool'],
    );
  });

  it('keeps the first message of a new chat, images and all, when init names the session it created', () => {
    const images = [{ name: 'shot.png', mime: 'image/png', width: 300, height: 200 }];
    const fresh: HostMessage = { ...init, sessionId: '' } as HostMessage;
    let s = [fresh].reduce((st, m) => chatReducer(st, host(m)), initialState());
    s = chatReducer(s, { type: 'message.sent', text: 'what is this?', images });
    s = chatReducer(s, host({ ...init, sessionId: 's1', running: true } as HostMessage));
    s = chatReducer(s, event({ type: 'turn.start', turn: 1, prompt: 'what is this? [image shot.png]' }));
    assert.deepEqual(s.items, [{ kind: 'user', id: 'i1', text: 'what is this?', images, turn: 1 }]);
    assert.equal(s.session?.id, 's1');
    assert.equal(s.running, true);

    // A chat that already has a session is replaced by another one as before: nothing is kept.
    const sent = chatReducer(run(event({ type: 'turn.start', turn: 1, prompt: 'old' })), { type: 'message.sent', text: 'again' });
    assert.deepEqual(chatReducer(sent, host({ ...init, sessionId: 's2' } as HostMessage)).items, []);
    // New Chat (init without a session) clears a pending message too.
    assert.deepEqual(chatReducer(chatReducer(s, { type: 'message.sent', text: 'x' }), host(fresh)).items, []);
  });
});

describe('webview state: a replay keeps what the reader opened', () => {
  it('keeps open tool cards open and the start time of a running call across a transcript replay', () => {
    const entries = [
      { role: 'tool' as const, callId: 'c1', tool: 'grep', args: '{}', title: 'grep', summary: 'found 2', result: 'a\nb', ok: true },
      { role: 'tool' as const, callId: 'c2', tool: 'shell', args: '{}', title: 'shell', summary: '' },
    ];
    let s = run(host({ ...init, running: true } as HostMessage), host({ type: 'transcript', sessionId: 's1', entries }, 1000));
    const c1 = s.items.find((i) => i.kind === 'tool' && i.callId === 'c1');
    s = chatReducer(s, { type: 'tool.toggle', id: c1?.id ?? '' });
    s = chatReducer(s, host({ type: 'transcript', sessionId: 's1', entries }, 9000));
    const tools = s.items.flatMap((i) => (i.kind === 'tool' ? [[i.callId, i.expanded ?? false, i.startedAt ?? null]] : []));
    assert.deepEqual(tools, [
      ['c1', true, null],
      ['c2', false, 1000],
    ]);
  });
});
