/**
 * Strict checks of the values given on the command line (and the endpoint from OPENAI_BASE_URL).
 * A settings file's bad value warns and keeps the earlier one; a flag's bad value is a usage error,
 * so nothing runs with a value the user did not ask for (never the default cloud endpoint).
 */

export class FlagError extends Error {}

export const MAX_ROUNDS_LIMIT = 10_000;

/** `--max-rounds`: an integer from 1 to 10000, written as plain digits. */
export function maxRoundsFlag(raw: string): number {
  const text = raw.trim();
  const n = /^\+?\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_ROUNDS_LIMIT) {
    throw new FlagError(`--max-rounds must be an integer from 1 to ${MAX_ROUNDS_LIMIT} (got ${raw})`);
  }
  return n;
}

/** Why `value` cannot be a model endpoint, or undefined when it is an http(s) URL. */
export function endpointProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'it is not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'it must start with http:// or https://';
  return undefined;
}

/**
 * The endpoint the user gave explicitly: `--base-url`, else a non-empty OPENAI_BASE_URL.
 * Throws a FlagError naming where it came from when it is not an http(s) URL.
 */
export function endpointFlag(flag: string | undefined, env: string | undefined): string | undefined {
  const [value, from] = flag !== undefined ? [flag, '--base-url'] : env?.trim() ? [env.trim(), 'OPENAI_BASE_URL'] : [undefined, ''];
  if (value === undefined) return undefined;
  const problem = endpointProblem(value);
  if (problem) throw new FlagError(`${from} must be the http(s) URL of an OpenAI-compatible endpoint, e.g. http://localhost:11434/v1 (got ${JSON.stringify(value)}: ${problem}); nothing was sent`);
  return value;
}

/** Most a budget may be (as agent.budget takes it). */
export const BUDGET_LIMIT = 1_000_000;

const AMOUNT = /^\+?(\d+(\.\d*)?|\.\d+)$/;

/**
 * `--budget`: `0.50` (this turn's budget), or `turn=0.50`, `session=5`, `turn=0.5,session=5`; amounts
 * in the price table's units (US dollars unless model.inputPrice says otherwise), above 0 and at
 * most 1000000.
 */
export function budgetFlag(raw: string): { turn?: number; session?: number } {
  const forms = 'give an amount (this turn), or turn=AMOUNT and/or session=AMOUNT, e.g. --budget 0.50 or --budget turn=0.5,session=5';
  const out: { turn?: number; session?: number } = {};
  const parts = raw.trim().split(',').map((p) => p.trim());
  for (const part of parts) {
    const m = /^(?:(turn|session)\s*=\s*)?(.*)$/.exec(part)!;
    const scope = (m[1] ?? (parts.length === 1 ? 'turn' : undefined)) as 'turn' | 'session' | undefined;
    const text = m[2].trim();
    const n = AMOUNT.test(text) ? Number(text) : NaN;
    if (!scope || scope in out || !Number.isFinite(n) || n <= 0 || n > BUDGET_LIMIT) {
      throw new FlagError(`--budget: ${forms}; each amount above 0 and at most ${BUDGET_LIMIT} (got ${JSON.stringify(raw)})`);
    }
    out[scope] = n;
  }
  return out;
}
