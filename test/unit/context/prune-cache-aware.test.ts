import assert from 'node:assert/strict';
import type { Message } from '../../../extension/core/conversation/messages';
import { pruneOldToolOutputs, type PruneOptions } from '../../../extension/core/context/prune';
import { PruneCache } from '../../../extension/core/context/prune-cache';

/** A coding session as requests see it: each round one shell call with an output of 1-4 KB. */
function session(rounds: number, outputChars = (r: number) => 1000 + ((r * 7919) % 3000)): Message[] {
  const out: Message[] = [{ role: 'user', content: 'fix the failing test' }];
  for (let r = 0; r < rounds; r++) {
    out.push({ role: 'assistant', content: `step ${r}`, toolCalls: [{ id: `c${r}`, name: 'shell', arguments: JSON.stringify({ command: `run ${r}` }) }] });
    out.push({ role: 'tool', toolCallId: `c${r}`, toolName: 'shell', ok: true, content: `output ${r} `.padEnd(outputChars(r), 'x') });
  }
  return out;
}

/** The requests a growing session sends, one per round (the transcript up to each round's results). */
function requests(messages: Message[], opts: PruneOptions): Message[][] {
  const cache = new PruneCache();
  const sent: Message[][] = [];
  for (let i = 1; i <= messages.length; i++) {
    if (i < messages.length && messages[i].role !== 'assistant') continue;
    sent.push(cache.prune('s', messages.slice(0, i), opts).messages);
  }
  return sent;
}

/** Requests whose messages differ from the previous request's somewhere before its end (a prompt-cache miss there). */
function prefixBreaks(sent: Message[][]): number {
  let breaks = 0;
  for (let k = 1; k < sent.length; k++) {
    const prev = sent[k - 1];
    if (prev.some((m, i) => JSON.stringify(m) !== JSON.stringify(sent[k][i]))) breaks++;
  }
  return breaks;
}

const base = { enabled: true, keepToolRounds: 6, protectRecentViews: 3 } as const;

describe('pruning: cache-aware strategy', () => {
  it('with no caching (discount 1, no write premium) stubs exactly what rolling stubs, after every message', () => {
    const full = session(40);
    const cache = new PruneCache();
    for (let i = 1; i <= full.length; i++) {
      const got = cache.prune('s', full.slice(0, i), { ...base, strategy: 'cache-aware', prices: { discount: 1, writePremium: 1 } });
      assert.deepEqual(got.messages, pruneOldToolOutputs(full.slice(0, i), base).messages, `${i} messages`);
    }
  });

  it('under caching, stubs come in batches: far fewer prompt-cache misses than rolling, never more stubbed than rolling', () => {
    const full = session(60);
    const rolling = requests(full, { ...base, strategy: 'rolling' });
    const aware = requests(full, { ...base, strategy: 'cache-aware', prices: { discount: 0.1, writePremium: 1.25 } });
    assert.equal(aware.length, rolling.length);
    assert.ok(prefixBreaks(rolling) >= 50, `rolling breaks the prefix almost every round (${prefixBreaks(rolling)})`);
    assert.ok(prefixBreaks(aware) <= prefixBreaks(rolling) / 2, `cache-aware broke it ${prefixBreaks(aware)} times`);
    assert.ok(prefixBreaks(aware) >= 2, 'it still prunes, in batches');
    for (const [k, req] of aware.entries()) {
      // The newest keepToolRounds results are always whole; anything cache-aware stubs, rolling stubs too.
      const tools = req.filter((m) => m.role === 'tool');
      for (const m of tools.slice(-base.keepToolRounds)) assert.doesNotMatch(m.content as string, /pruned/, `request ${k}`);
      const rollingStubbed = rolling[k].filter((m) => m.role === 'tool' && /pruned/.test(m.content as string)).length;
      assert.ok(tools.filter((m) => /pruned/.test(m.content as string)).length <= rollingStubbed, `request ${k}`);
    }
  });

  it('a rebuilt state (a resumed session) sends the same request as the live one', () => {
    const full = session(45);
    const opts: PruneOptions = { ...base, strategy: 'cache-aware', prices: { discount: 0.25, writePremium: 1 } };
    const live = requests(full, opts).at(-1)!;
    const resumed = new PruneCache().prune('s', full, opts).messages;
    assert.deepEqual(resumed, live);
  });

  it('the cheaper the cache, the fewer the moves (discount 0.5 moves more often than 0.1)', () => {
    const full = session(60);
    const at = (discount: number) => prefixBreaks(requests(full, { ...base, strategy: 'cache-aware', prices: { discount, writePremium: 1 } }));
    assert.ok(at(0.5) >= at(0.1), `0.5: ${at(0.5)}, 0.1: ${at(0.1)}`);
  });

  it('late in a long session the batches stay large: the saving is counted over the next keepToolRounds requests, not the rounds so far', () => {
    // 1 KB outputs for 120 rounds at 10% with 125% writes: a one-round batch saves 1 KB x 0.1 x 6
    // per the rule, far less than re-writing the ~8 KB tail, so the cutoff waits for a batch of
    // many rounds. Counting the saving over the session's age (120 rounds) would move it every round.
    const full = session(120, () => 1000);
    const sent = requests(full, { ...base, strategy: 'cache-aware', prices: { discount: 0.1, writePremium: 1.25 } });
    const late = sent.slice(60);
    const breaks = prefixBreaks(late);
    assert.ok(breaks >= 1, 'it still prunes late in the session');
    assert.ok(breaks <= 8, `${breaks} prefix breaks in the last ${late.length} requests`);
  });
});

describe('pruning: old tool-call arguments', () => {
  function writes(rounds: number): Message[] {
    const out: Message[] = [{ role: 'user', content: 'write the files' }];
    for (let r = 0; r < rounds; r++) {
      out.push({ role: 'assistant', content: '', toolCalls: [{ id: `w${r}`, name: 'write_file', arguments: JSON.stringify({ path: `src/f${r}.ts`, content: `// file ${r}\n`.padEnd(9000, 'x') }) }] });
      out.push({ role: 'tool', toolCallId: `w${r}`, toolName: 'write_file', ok: true, content: `created src/f${r}.ts (1 line)` });
    }
    return out;
  }

  it('a 9 KB write_file content older than keepToolRounds is sent as a note that keeps the path; newer calls and the stored transcript stay whole', () => {
    const full = writes(10);
    const stored = structuredClone(full);
    const req = new PruneCache().prune('s', full, { ...base, strategy: 'rolling' }).messages;
    const calls = req.flatMap((m) => (m.role === 'assistant' ? m.toolCalls ?? [] : []));
    for (const [r, c] of calls.entries()) {
      const args = JSON.parse(c.arguments);
      assert.equal(args.path, `src/f${r}.ts`);
      if (r < 10 - base.keepToolRounds) assert.equal(args.content, '[9000 chars sent in full when this call ran; omitted from this old request]', `call ${r}`);
      else assert.equal(args.content.length, 9000, `call ${r} is recent`);
    }
    assert.deepEqual(full, stored, 'the transcript itself is never changed');
    assert.deepEqual(req, pruneOldToolOutputs(full, base).messages, 'the incremental cache and the reference agree');
  });

  it('small and malformed arguments are sent as they are, however old', () => {
    const full = writes(8);
    (full[1] as any).toolCalls[0].arguments = '{"path": "a", "content": "' + 'y'.repeat(1500);
    (full[3] as any).toolCalls[0].arguments = '{"path":"b","content":"short"}';
    const req = new PruneCache().prune('s', full, { ...base, strategy: 'rolling' }).messages;
    assert.equal((req[1] as any).toolCalls[0].arguments, (full[1] as any).toolCalls[0].arguments);
    assert.equal((req[3] as any).toolCalls[0].arguments, '{"path":"b","content":"short"}');
  });
});
