import assert from 'node:assert/strict';
import { encode } from 'gpt-tokenizer';
import { ANTHROPIC_NATIVE, anthropicCosts, anthropicParams, AnthropicTokenizer, HAIKU_RULES, simulateAnthropicCache, SONNET_RULES, type AnthropicRequestTokens } from '../../../bench/anthropic-cache';
import type { WireMessage, WireTool } from '../../../extension/core/model/types';

/**
 * Requests built by hand: each block is [label, tokens] or [label, tokens, 'bp'] (a cache_control
 * breakpoint); equal label sequences are identical prefixes.
 */
function hand(...requests: Array<Array<[string, number] | [string, number, 'bp']>>): AnthropicRequestTokens[] {
  const ids = new Map<string, number>();
  return requests.map((blocks) => {
    let end = 0;
    let path = '';
    const out = blocks.map(([label, tokens, bp]) => {
      end += tokens;
      path += `/${label}`;
      if (!ids.has(path)) ids.set(path, ids.size);
      return { prefix: ids.get(path)!, end, breakpoint: bp === 'bp' };
    });
    return { blocks: out, total: end };
  });
}

const result = (c: ReturnType<typeof simulateAnthropicCache>) => c.total.map((t, i) => ({ read: c.cached[i], written: c.written[i], plain: t - c.cached[i] - c.written[i] }));

describe('bench: Anthropic-native cache (breakpoints, lookback, minimum)', () => {
  // Tools 1,000 (under the minimum, so never stored), system 300, the task 200; rounds of a text
  // block (50) and a tool_use (20) then a tool_result (400; 30 once pruned).
  const tools: [string, number, 'bp'] = ['tools', 1000, 'bp'];
  const system: [string, number, 'bp'] = ['system', 300, 'bp'];
  const task: [string, number] = ['task', 200];
  const round = (n: number, pruned = false): Array<[string, number]> => [
    [`text${n}`, 50],
    [`use${n}`, 20],
    [pruned ? `stub${n}` : `result${n}`, pruned ? 30 : 400],
  ];
  const bpLast = (blocks: Array<[string, number]>): Array<[string, number] | [string, number, 'bp']> => [...blocks.slice(0, -1), [...blocks[blocks.length - 1], 'bp'] as [string, number, 'bp']];

  it('a hand-built session: reads only stored breakpoint prefixes within the lookback, writes up to the last breakpoint, the tail is plain', () => {
    // 20 parallel calls: an assistant message of 21 blocks and 20 results of 10 tokens each.
    const wide: Array<[string, number]> = [['textW', 50], ...Array.from({ length: 20 }, (_, i): [string, number] => [`useW${i}`, 5]), ...Array.from({ length: 20 }, (_, i): [string, number] => [`resW${i}`, 10])];
    const reqs = hand(
      // R0: 1,500 tokens; stored: system (1,300) and task (1,500); tools (1,000) is under the minimum.
      [tools, system, [...task, 'bp']],
      // R1 = R0 + round 1 (1,970): reads the task entry (3 blocks before the last breakpoint), writes 470.
      [tools, system, ...bpLast([task, ...round(1)])],
      // R2 stubs round 1's result (30) and adds round 2 (2,070): the common prefix with R1 runs
      // through use1 (1,570) but nothing was stored there; the task's entry (1,500) is 6 blocks
      // before the last breakpoint (7 positions with it), inside the window: read 1,500, write 570.
      [tools, system, ...bpLast([task, ...round(1, true), ...round(2)])],
      // R3 = R2 + 41 blocks (350 tokens) + a block after the last breakpoint (25 tokens): R2's entry
      // (2,070) is 41 blocks before the last breakpoint (42 positions with it), outside the window; the system
      // breakpoint still finds its own entry (1,300). Written: 2,420 - 1,300 = 1,120; plain 25.
      [tools, system, task, ...round(1, true), ...round(2), ...bpLast(wide), ['tail', 25]],
    );
    const c = simulateAnthropicCache(reqs, SONNET_RULES);
    assert.deepEqual(c.total, [1500, 1970, 2070, 2445]);
    assert.deepEqual(result(c), [
      { read: 0, written: 1500, plain: 0 },
      { read: 1500, written: 470, plain: 0 },
      { read: 1500, written: 570, plain: 0 },
      { read: 1300, written: 1120, plain: 25 },
    ]);
    // 10% reads, 125% writes, plain at 1.
    assert.deepEqual(anthropicCosts(c, ANTHROPIC_NATIVE), [1875, 150 + 587.5, 150 + 712.5, 130 + 1400 + 25]);
  });

  it('a prefix under the minimum is neither written nor read (Haiku: 2,048)', () => {
    const reqs = hand([tools, system, [...task, 'bp']], [tools, system, ...bpLast([task, ...round(1)])], [tools, system, ...bpLast([task, ...round(1), ...round(2)])]);
    const c = simulateAnthropicCache(reqs, HAIKU_RULES);
    assert.deepEqual(result(c), [
      { read: 0, written: 0, plain: 1500 },
      { read: 0, written: 0, plain: 1970 },
      // 2,440 reaches the minimum: written whole, with nothing stored before it to read.
      { read: 0, written: 2440, plain: 0 },
    ]);
  });

  it('an entry is found at the edge of the lookback window and not one block beyond it', () => {
    const blocks = (n: number): Array<[string, number]> => Array.from({ length: n }, (_, i): [string, number] => [`b${i}`, 10]);
    const base: Array<[string, number] | [string, number, 'bp']> = [['big', 2000], ...bpLast(blocks(1))];
    // The earlier entry 19 blocks before the breakpoint (20 positions with it) is found; 20 blocks before, it is not.
    for (const [extra, read] of [
      [19, 2010],
      [20, 0],
    ] as const) {
      const c = simulateAnthropicCache(hand(base, [['big', 2000], ...bpLast(blocks(1 + extra))]), SONNET_RULES);
      assert.equal(c.cached[1], read, `${extra} blocks after the entry`);
    }
  });

  it('through the real Anthropic translation: breakpoints on the last tool, the system prompt and the last block; a pruned result reads back to the task', () => {
    const words = (seed: number, n: number) => Array.from({ length: n }, (_, i) => ['parse', 'token', 'error', 'value', 'file', 'line', 'return', 'test'][(seed * 7 + i * 3 + ((i * i) % 5)) % 8]).join(' ');
    const tools: WireTool[] = ['read_file', 'grep', 'shell'].map((name, i) => ({ type: 'function', function: { name, description: words(i, 250), parameters: { type: 'object', properties: { path: { type: 'string' } } } } }));
    const sys: WireMessage = { role: 'system', content: words(9, 300) };
    const task: WireMessage = { role: 'user', content: 'Fix the failing test in parser.ts.' };
    const call = (n: number): WireMessage => ({ role: 'assistant', content: `Looking at step ${n}.`, tool_calls: [{ id: `c${n}`, type: 'function', function: { name: 'shell', arguments: JSON.stringify({ command: `run ${n}` }) } }] });
    const out = (n: number, text: string): WireMessage => ({ role: 'tool', tool_call_id: `c${n}`, content: text });
    const r1 = words(1, 400);
    const bodies = [
      { messages: [sys, task], tools },
      { messages: [sys, task, call(1), out(1, r1)], tools },
      { messages: [sys, task, call(1), out(1, '[pruned]'), call(2), out(2, words(2, 300))], tools },
    ];
    const params = bodies.map((b) => anthropicParams(b));
    const tok = new AnthropicTokenizer();
    const reqs = params.map((p) => tok.request(p));
    // Block counts: 3 tools, the system prompt, the task; then text + tool_use, tool_result per round.
    assert.deepEqual(
      reqs.map((r) => r.blocks.length),
      [5, 8, 11],
    );
    for (const r of reqs) assert.deepEqual(r.blocks.flatMap((b, i) => (b.breakpoint ? [i] : [])), [2, 3, r.blocks.length - 1]);
    // By hand with the tokenizer: each block's JSON without its marker, plus a role part per message.
    const t = (x: unknown) => encode(JSON.stringify(x)).length;
    const toolTokens = params[0].tools!.reduce((a, x) => a + t({ ...(x as object), cache_control: undefined }), 0);
    const toolsEnd = reqs[0].blocks[2].end;
    assert.equal(toolsEnd, toolTokens, 'JSON.stringify drops an undefined key, so this is the tool without its marker');
    const systemEnd = toolsEnd + t({ type: 'text', text: sys.content });
    assert.equal(reqs[0].blocks[3].end, systemEnd);
    const taskEnd = systemEnd + t({ role: 'user' }) + t({ type: 'text', text: task.content });
    assert.equal(reqs[0].total, taskEnd);
    const round1 = t({ role: 'assistant' }) + t({ type: 'text', text: 'Looking at step 1.' }) + t({ type: 'tool_use', id: 'c1', name: 'shell', input: { command: 'run 1' } }) + t({ role: 'user' }) + t({ type: 'tool_result', tool_use_id: 'c1', content: r1 });
    assert.equal(reqs[1].total, taskEnd + round1);
    assert.ok(systemEnd >= 1024, `system + tools ${systemEnd} tokens reach the minimum`);

    const c = simulateAnthropicCache(reqs, SONNET_RULES);
    assert.deepEqual(result(c), [
      { read: 0, written: taskEnd, plain: 0 },
      { read: taskEnd, written: round1, plain: 0 },
      // Round 1's result changed: request 1's entry no longer matches, the task's (6 blocks before the last breakpoint) does.
      { read: taskEnd, written: reqs[2].total - taskEnd, plain: 0 },
    ]);
  });
});
