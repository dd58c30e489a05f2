import type { Logger } from '../../log';
import { defaultSettings, type Settings } from '../../settings/schema';
import { ANTHROPIC_BASE_URL, anthropicSdk, createAnthropicClient } from '../anthropic/client';
import { noKeySent } from '../errors';
import { thinkingBudget } from '../model-choice';
import type { ModelClient } from '../types';
import type { ModelProvider } from './table';

/** model.baseUrl's default, OpenAI's endpoint: never where Claude is. */
const OPENAI_DEFAULT_BASE_URL = defaultSettings()['model.baseUrl'];

/**
 * Where the anthropic provider sends requests (and the key): model.baseUrl when the user set one
 * (a proxy, a gateway that speaks the Messages API), else Anthropic's own API.
 */
export function anthropicBaseUrl(settings: Pick<Settings, 'model.baseUrl'>): string {
  const set = settings['model.baseUrl'].trim();
  return set && set.replace(/\/+$/, '') !== OPENAI_DEFAULT_BASE_URL.replace(/\/+$/, '') ? set : ANTHROPIC_BASE_URL;
}

/** The Anthropic client the settings describe, with the given key. */
export function anthropicClientFromSettings(s: Settings, apiKey: string | undefined, log: Logger): ModelClient {
  return createAnthropicClient({
    baseUrl: anthropicBaseUrl(s),
    apiKey: apiKey ?? '',
    model: s['model.name'],
    maxOutputTokens: s['model.maxOutputTokens'],
    // The chat's effort (or model.reasoningEffort) as a thinking budget, else model.thinkingBudgetTokens.
    thinkingBudgetTokens: thinkingBudget(s),
    requestTimeoutS: s['model.requestTimeoutS'],
    maxRetries: s['model.maxRetries'],
    cacheHints: s['model.cacheHints'],
    log: (level, m) => log[level](m),
  });
}

/** Anthropic's Messages API (Claude), with prompt-cache breakpoints the OpenAI-compatible route cannot send. */
export const anthropicProvider: ModelProvider = {
  usesApiKey: true,
  createClient: anthropicClientFromSettings,
  /** GET /v1/models. */
  async listModels(settings, apiKey) {
    const client = anthropicSdk(anthropicBaseUrl(settings), apiKey ?? '', 10_000);
    const out: string[] = [];
    for await (const m of client.models.list()) out.push(m.id);
    return out.sort();
  },
  setup: (_settings, apiKey) => ({ needsKey: noKeySent(apiKey ?? '') }),
};

/**
 * Where the user's API key goes for these settings, and who chose that: the anthropic provider's
 * endpoint (chosen by whoever set model.provider when it is Anthropic's own API), else model.baseUrl.
 * The hosts bind keys to this origin and ask before sending one where a workspace pointed it.
 */
export function keyTarget(loaded: { settings: Pick<Settings, 'model.provider' | 'model.baseUrl'>; scope: Record<'model.provider' | 'model.baseUrl', 'default' | 'user' | 'workspace'>; origin: Record<'model.provider' | 'model.baseUrl', string> }): { baseUrl: string; scope: 'default' | 'user' | 'workspace'; origin: string } {
  const s = loaded.settings;
  if (s['model.provider'] === 'anthropic') {
    const baseUrl = anthropicBaseUrl(s);
    const by = baseUrl === ANTHROPIC_BASE_URL ? 'model.provider' : 'model.baseUrl';
    return { baseUrl, scope: loaded.scope[by], origin: loaded.origin[by] };
  }
  return { baseUrl: s['model.baseUrl'], scope: loaded.scope['model.baseUrl'], origin: loaded.origin['model.baseUrl'] };
}

/** The base URL requests (and the key) go to for these settings: the anthropic provider's endpoint, else model.baseUrl. */
export function requestBaseUrl(s: Pick<Settings, 'model.provider' | 'model.baseUrl'>): string {
  return s['model.provider'] === 'anthropic' ? anthropicBaseUrl(s) : s['model.baseUrl'];
}

/** The environment variable a host may take the key from for these settings (ANTHROPIC_API_KEY for the anthropic provider). */
export function keyEnvVar(settings: Pick<Settings, 'model.provider'>): 'ANTHROPIC_API_KEY' | 'OPENAI_API_KEY' {
  return settings['model.provider'] === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
}
