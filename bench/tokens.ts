import { countTokens } from 'gpt-tokenizer';

/** Input tokens of one recorded Chat Completions request: its messages and tools, as serialized JSON (o200k_base). */
export function requestTokens(body: { messages: unknown[]; tools?: unknown[] }): { total: number; system: number; tools: number } {
  const messages = countTokens(JSON.stringify(body.messages));
  const tools = body.tools ? countTokens(JSON.stringify(body.tools)) : 0;
  const system = countTokens(JSON.stringify((body.messages as Array<{ role: string }>).filter((m) => m.role === 'system')));
  return { total: messages + tools, system, tools };
}

export function median(xs: number[]): number {
  return percentile(xs, 50);
}

export function percentile(xs: number[], p: number): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[i];
}
