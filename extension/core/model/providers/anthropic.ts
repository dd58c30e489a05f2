import type { Logger } from '../../log';
import { defaultSettings, type Settings } from '../../settings/schema';
import { ANTHROPIC_BASE_URL, anthropicSdk, createAnthropicClient } from '../anthropic/client';
import { noKeySent } from '../errors';
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
    thinkingBudgetTokens: s['model.thinkingBudgetTokens'],
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
