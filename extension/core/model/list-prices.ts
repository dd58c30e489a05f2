/**
 * Public list prices in US dollars per million tokens (input, output) by model family, as of late
 * 2026, for the context meter's cost estimate; `model.inputPrice` / `model.outputPrice` override
 * them. A model the table does not know gets no estimate rather than a guess.
 */
import type { Settings } from '../settings/schema';
import { bareModelName } from './capabilities';

export interface ListPrice {
  /** USD per million uncached input tokens. */
  input: number;
  /** USD per million output tokens. */
  output: number;
}

const l = (pattern: RegExp, input: number, output: number) => ({ pattern, input, output });

/** First match wins: specific names before their families. */
const TABLE = [
  l(/^gpt-5(\.\d)?-nano/, 0.05, 0.4),
  l(/^gpt-5(\.\d)?-mini/, 0.25, 2),
  l(/^gpt-5/, 1.25, 10),
  l(/^gpt-4\.1-nano/, 0.1, 0.4),
  l(/^gpt-4\.1-mini/, 0.4, 1.6),
  l(/^gpt-4\.1/, 2, 8),
  l(/^gpt-4o-mini/, 0.15, 0.6),
  l(/^gpt-4o/, 2.5, 10),
  l(/^o4-mini/, 1.1, 4.4),
  l(/^o3/, 2, 8),
  l(/^claude-(opus-4-[15]|opus-4\.[15])/, 5, 25),
  l(/^claude-(3-)?opus/, 15, 75),
  l(/^claude-(3-5-|3\.5-)?haiku/, 0.8, 4),
  l(/^claude-haiku-4/, 1, 5),
  l(/^claude-/, 3, 15),
  l(/^deepseek/, 0.28, 0.42),
  l(/^gemini-2\.5-pro/, 1.25, 10),
  l(/^gemini-2\.5-flash-lite/, 0.1, 0.4),
  l(/^gemini-2\.5-flash/, 0.3, 2.5),
];

export function listPrice(modelName: string, settings?: Pick<Settings, 'model.inputPrice' | 'model.outputPrice'>): ListPrice | undefined {
  const hit = TABLE.find((e) => e.pattern.test(bareModelName(modelName)));
  const input = settings?.['model.inputPrice'] ?? hit?.input;
  const output = settings?.['model.outputPrice'] ?? hit?.output;
  return input === undefined ? undefined : { input, output: output ?? 0 };
}
