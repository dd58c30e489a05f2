/**
 * What a tool load costs under prompt caching, and whether loading tools in groups saves money.
 * Loading a tool changes the tools block, which providers put first in the prompt, so the request
 * that follows misses the cache from its first token. The same 12-round session with 64 deferred
 * tools runs twice: "one by one" loads two tools, uses one, then loads a third (two loads); "as a
 * group" loads all three at once (the second tool_search finds them loaded, so the block stays).
 */
import { PRICE_MODELS, RequestTokenizer, costs, simulateCache, sum } from './cache-cost';
import { createHarness } from '../test/fixtures/agent-harness';
import { manyDeferredTools } from './scenarios';

const call = (name: string, args: unknown) => ({ name, arguments: JSON.stringify(args) });

async function run(grouped: boolean, tok: RequestTokenizer): Promise<{ requests: number[][]; blockChanges: number }> {
  const tools = manyDeferredTools('github', 64);
  const pick = [tools[3].name, tools[17].name, tools[42].name];
  const steps = [
    { toolCalls: [call('tool_search', { query: `select:${grouped ? pick.join(',') : `${pick[0]},${pick[1]}`}` })] },
    { toolCalls: [call(pick[0], { owner: 'o', repo: 'r' })] },
    { toolCalls: [call('tool_search', { query: `select:${pick[2]}` })] },
    { toolCalls: [call(pick[2], { owner: 'o', repo: 'r', state: 'open' })] },
    ...Array.from({ length: 8 }, (_, i) => ({ toolCalls: [call('glob', { pattern: `*.${i}` })] })),
  ];
  const h = await createHarness({ settings: { 'agent.maxRounds': 100, 'approvals.autoApprove': ['exec', 'write'] }, extraTools: tools });
  try {
    h.server.setResponder((_b, i) => steps[i] ?? { text: 'done' });
    await h.agent.runTurn(h.agent.newSession(), 'Triage the open issues.', new AbortController().signal);
    const bodies = h.server.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => JSON.parse(r.raw));
    let blockChanges = 0;
    for (let i = 1; i < bodies.length; i++) if (JSON.stringify(bodies[i].tools) !== JSON.stringify(bodies[i - 1].tools)) blockChanges++;
    return { requests: bodies.map((b) => tok.tokens(b)), blockChanges };
  } finally {
    await h.close();
  }
}

export async function toolLoadBench(): Promise<Array<{ price: string; oneByOne: number; grouped: number; loadsOneByOne: number; loadsGrouped: number }>> {
  const tok = new RequestTokenizer();
  const a = await run(false, tok);
  const b = await run(true, tok);
  return PRICE_MODELS.map((p) => ({
    price: p.name,
    oneByOne: sum(costs(simulateCache(a.requests), p)),
    grouped: sum(costs(simulateCache(b.requests), p)),
    loadsOneByOne: a.blockChanges,
    loadsGrouped: b.blockChanges,
  }));
}

if (require.main === module) {
  void toolLoadBench().then((rows) => {
    for (const r of rows) console.log(`${r.price.padEnd(32)} one by one ${Math.round(r.oneByOne)} (${r.loadsOneByOne} block changes), as a group ${Math.round(r.grouped)} (${r.loadsGrouped}): ${(r.grouped / r.oneByOne).toFixed(3)}`);
    process.exit(0);
  });
}
