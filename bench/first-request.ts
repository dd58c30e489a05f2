/** Tokens (o200k) of the first request's system prompt and tools block with the default tools: the fixed cost every session pays. */
import { countTokens } from 'gpt-tokenizer';
import { createHarness } from '../test/fixtures/agent-harness';

export async function firstRequestTokens(): Promise<{ system: number; tools: number; total: number; perTool: Record<string, number> }> {
  const h = await createHarness();
  try {
    h.server.setResponder(() => ({ text: 'ok' }));
    await h.agent.runTurn(h.agent.newSession(), 'hi', new AbortController().signal);
    const b = h.bodies()[0];
    const system = countTokens(JSON.stringify(b.messages.filter((m: { role: string }) => m.role === 'system')));
    const tools = countTokens(JSON.stringify(b.tools));
    const perTool = Object.fromEntries(b.tools.map((t: { function: { name: string } }) => [t.function.name, countTokens(JSON.stringify(t))]));
    return { system, tools, total: system + tools, perTool };
  } finally {
    await h.close();
  }
}

if (require.main === module) void firstRequestTokens().then((r) => (console.log(r), process.exit(0)));
