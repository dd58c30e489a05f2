/**
 * The environment Snowpea's child processes start with (shell, execute_code, git, MCP stdio
 * servers, the browser): the user's environment minus model-provider credentials, so a tool the
 * model runs cannot print the API key Snowpea uses.
 */

/** Variables that hold model-provider API keys; never passed to a child process. */
export const PROVIDER_KEY_VARS: readonly string[] = [
  'OPENAI_API_KEY',
  'OPENAI_ADMIN_KEY',
  'AZURE_OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'SNOWPEA_API_KEY',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'MISTRAL_API_KEY',
  'GROQ_API_KEY',
  'OPENROUTER_API_KEY',
  'DEEPSEEK_API_KEY',
  'XAI_API_KEY',
  'TOGETHER_API_KEY',
  'FIREWORKS_API_KEY',
  'COHERE_API_KEY',
];

/** Base-URL variables whose `user:password@` part is removed (the URL itself stays). */
const URL_VARS = ['OPENAI_BASE_URL', 'OPENAI_API_BASE', 'ANTHROPIC_BASE_URL'];

/** Shorter values are not treated as secrets (they would match ordinary values such as "none"). */
const MIN_SECRET_LENGTH = 8;

const secrets = new Set<string>();

/**
 * Registers a credential Snowpea was given (from --api-key, a key file, the secret store): any
 * variable whose value contains it is left out of child environments.
 */
export function registerSecretValue(value: string | undefined): void {
  const v = value?.trim();
  if (v && v.length >= MIN_SECRET_LENGTH) secrets.add(v);
}

/** For tests: forgets the registered values. */
export function clearSecretValues(): void {
  secrets.clear();
}

function withoutUserInfo(url: string): string {
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return url;
  }
}

/** A copy of `env` without provider keys, credentials in base URLs, or any registered secret value. */
export function scrubEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  const drop = new Set(PROVIDER_KEY_VARS.map((k) => k.toUpperCase()));
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined || drop.has(k.toUpperCase())) continue;
    if ([...secrets].some((s) => v.includes(s))) continue;
    out[k] = URL_VARS.includes(k.toUpperCase()) ? withoutUserInfo(v) : v;
  }
  return out;
}

/** The scrubbed process environment plus `extra` (extra wins; it is the caller's own choice). */
export function scrubbedEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...scrubEnv(process.env), ...extra };
}
