import assert from 'node:assert/strict';
import type { Message } from '../../../extension/core/conversation/messages';
import { prunedStub, pruneOldToolOutputs, skillPrunedStub, type PruneOptions } from '../../../extension/core/context/prune';
import { PruneCache } from '../../../extension/core/context/prune-cache';
import { SessionStates } from '../../../extension/core/conversation/session-states';

/** A deterministic transcript: tool rounds of one or two calls, skill views, images, short and failed results, plain answers, a reused call id. */
function transcript(seed: number, rounds: number): Message[] {
  let x = seed;
  // mulberry32
  const rand = (n: number) => {
    x = (x + 0x6d2b79f5) | 0;
    let t = Math.imul(x ^ (x >>> 15), 1 | x);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
  const out: Message[] = [{ role: 'user', content: 'go' }];
  for (let r = 0; r < rounds; r++) {
    const kind = rand(10);
    if (kind === 0) {
      out.push({ role: 'assistant', content: `answer ${r}` }, { role: 'user', content: `more ${r}` });
      continue;
    }
    const calls = Array.from({ length: 1 + rand(2) }, (_, k) => {
      const skill = kind === 1 && k === 0;
      const id = kind === 2 ? 'call_0' : `c${r}_${k}`; // some providers reuse ids
      return { id, name: skill ? 'skill_view' : kind === 3 ? 'view_image' : 'shell', arguments: skill ? JSON.stringify({ name: `skill-${r}` }) : '{}' };
    });
    out.push({ role: 'assistant', content: '', toolCalls: calls });
    for (const c of calls) {
      const size = rand(4) === 0 ? 10 : 200 + rand(3000);
      out.push({ role: 'tool', toolCallId: c.id, toolName: c.name, ok: rand(8) !== 0, content: `${c.name} ${r} `.padEnd(size, 'x') });
    }
    if (kind === 3) {
      out.push({
        role: 'user',
        attachedBy: 'tools',
        content: [
          { type: 'text', text: 'image attached: a.png' },
          { type: 'image', imageId: `i${r}`, name: `a${r}.png`, mime: 'image/png', width: 4, height: 4 },
        ],
      });
    }
  }
  return out;
}

function assertSame(cache: PruneCache, key: string, messages: Message[], opts: PruneOptions, why: string): Message[] {
  const got = cache.prune(key, messages, opts);
  const want = pruneOldToolOutputs(messages, opts);
  assert.deepEqual(got.messages, want.messages, why);
  assert.equal(got.savedChars, want.savedChars, `${why}: savedChars`);
  assert.equal(got.prunedResults, want.prunedCallIds.size, `${why}: prunedResults`);
  // Each pruned call once, with a stub the request really carries for that call.
  assert.deepEqual(new Set(got.prunedCalls.map((c) => c.callId)), want.prunedCallIds, `${why}: prunedCalls ids`);
  assert.equal(got.prunedCalls.length, want.prunedCallIds.size, `${why}: prunedCalls, each id once`);
  for (const c of got.prunedCalls) {
    const sent = want.messages.flatMap((m, i) => (m.role === 'tool' && m.toolCallId === c.callId && m !== messages[i] ? [m.content] : []));
    assert.ok(sent.includes(c.stub), `${why}: the stub of ${c.callId} is one the request carries`);
  }
  return got.messages;
}

const OPTIONS: PruneOptions[] = [
  { enabled: true, keepToolRounds: 6, protectRecentViews: 3 },
  { enabled: true, keepToolRounds: 1, protectRecentViews: 0 },
  { enabled: true, keepToolRounds: 0, protectRecentViews: 1 },
  { enabled: true, keepToolRounds: 3, protectRecentViews: 2 },
];

describe('pruning cache (incremental pruneOldToolOutputs)', () => {
  it('gives exactly what pruneOldToolOutputs gives after every appended message', () => {
    for (const [n, opts] of OPTIONS.entries()) {
      for (const seed of [1, 7, 42]) {
        const full = transcript(seed, 40);
        const copy = structuredClone(full);
        const growing: Message[] = [];
        const cache = new PruneCache();
        for (const m of full) {
          growing.push(m);
          assertSame(cache, 's', growing, opts, `options ${n}, seed ${seed}, ${growing.length} messages`);
        }
        assert.deepEqual(full, copy, 'the transcript is never modified');
      }
    }
  });

  it('names every call whose result the request carries as a stub, with that stub, round after round', () => {
    const cache = new PruneCache();
    const opts = { enabled: true, keepToolRounds: 1, protectRecentViews: 1 };
    const messages: Message[] = [{ role: 'user', content: 'go' }];
    const round = (id: string, name: string, content: string, args = '{}') =>
      messages.push({ role: 'assistant', content: '', toolCalls: [{ id, name, arguments: args }] }, { role: 'tool', toolCallId: id, toolName: name, ok: true, content });
    round('c1', 'shell', 'a'.repeat(500));
    round('k1', 'skill_view', 'step\n'.repeat(100), '{"name":"deploy"}');
    round('c2', 'grep', 'short');
    assert.deepEqual(cache.prune('s', messages, opts).prunedCalls, [{ callId: 'c1', stub: prunedStub('shell', 500) }], 'a result shorter than its stub is not pruned');
    round('k2', 'skill_view', 'other\n'.repeat(100), '{"name":"lint"}');
    round('c3', 'read_file', 'b'.repeat(900));
    const later = cache.prune('s', messages, opts);
    assert.deepEqual(later.prunedCalls, [
      { callId: 'c1', stub: prunedStub('shell', 500) },
      { callId: 'k1', stub: skillPrunedStub('deploy') },
    ]);
    assert.equal(later.prunedResults, 2);
    round('c4', 'shell', 'c'.repeat(300));
    assert.deepEqual(
      cache.prune('s', messages, opts).prunedCalls.map((c) => c.callId),
      ['c1', 'k1', 'c3'],
      'every pruned call, not only the newly pruned ones',
    );
    assert.deepEqual(cache.prune('s', messages, { ...opts, enabled: false }).prunedCalls, [], 'pruning switched off');
  });

  it('keeps a stub the same object from round to round, and hands out a fresh array each time', () => {
    const cache = new PruneCache();
    const messages = transcript(3, 20);
    const opts = OPTIONS[0];
    const a = cache.prune('s', messages, opts).messages;
    messages.push({ role: 'assistant', content: '', toolCalls: [{ id: 'z', name: 'shell', arguments: '{}' }] }, { role: 'tool', toolCallId: 'z', toolName: 'shell', ok: true, content: 'y'.repeat(500) });
    const b = cache.prune('s', messages, opts).messages;
    assert.notEqual(a, b);
    const stubbed = a.flatMap((m, i) => (m !== messages[i] ? [i] : []));
    assert.ok(stubbed.length > 0);
    for (const i of stubbed) assert.equal(b[i], a[i], `stub ${i} reused`);
  });

  it('starts over when the history changes other than by appending, or the options change', () => {
    const cache = new PruneCache();
    const messages = transcript(5, 30);
    const opts = OPTIONS[3];
    assertSame(cache, 's', messages, opts, 'first');

    // A message replaced in the middle (a new object with other content).
    const i = messages.findIndex((m, k) => k > 10 && m.role === 'tool');
    const edited = [...messages];
    edited[i] = { ...(messages[i] as Extract<Message, { role: 'tool' }>), content: 'z'.repeat(4000) };
    assertSame(cache, 's', edited, opts, 'a message replaced');

    // The history cut short (a retry dropping the last round), then grown again differently.
    const cut = edited.slice(0, 20);
    assertSame(cache, 's', cut, opts, 'history truncated');
    cut.push({ role: 'assistant', content: '', toolCalls: [{ id: 'n', name: 'shell', arguments: '{}' }] }, { role: 'tool', toolCallId: 'n', toolName: 'shell', ok: true, content: 'n'.repeat(900) });
    assertSame(cache, 's', cut, opts, 'grown again');

    // Other options for the same history, and pruning switched off.
    assertSame(cache, 's', cut, OPTIONS[1], 'options changed');
    const off = cache.prune('s', cut, { ...opts, enabled: false });
    assert.equal(off.messages, cut);
    assert.equal(off.prunedResults, 0);
    assertSame(cache, 's', cut, OPTIONS[1], 'switched on again');
  });

  it('keeps sessions apart and forgets one on request', () => {
    const states = new SessionStates();
    const cache = new PruneCache(states);
    const a = transcript(11, 25);
    const b = transcript(12, 25);
    assertSame(cache, 'a', a, OPTIONS[0], 'a');
    assertSame(cache, 'b', b, OPTIONS[0], 'b');
    a.push({ role: 'assistant', content: 'done' });
    assertSame(cache, 'a', a, OPTIONS[0], 'a grown');
    states.release('a');
    assertSame(cache, 'a', a, OPTIONS[0], 'a after forget');
    assertSame(cache, 'b', b, OPTIONS[0], 'b untouched');
  });

  it('names a skill whose call comes after its result, as pruneOldToolOutputs does', () => {
    const cache = new PruneCache();
    const body = 'step\n'.repeat(100);
    const messages: Message[] = [
      { role: 'user', content: 'go' },
      { role: 'tool', toolCallId: 'k1', toolName: 'skill_view', ok: true, content: body },
      { role: 'assistant', content: '', toolCalls: [{ id: 'k2', name: 'skill_view', arguments: '{"name":"b"}' }] },
      { role: 'tool', toolCallId: 'k2', toolName: 'skill_view', ok: true, content: body },
    ];
    const opts = { enabled: true, keepToolRounds: 6, protectRecentViews: 1 };
    assertSame(cache, 's', messages, opts, 'unknown name');
    messages.push({ role: 'assistant', content: '', toolCalls: [{ id: 'k1', name: 'skill_view', arguments: '{"name":"a"}' }] });
    assertSame(cache, 's', messages, opts, 'named later');
  });
});
