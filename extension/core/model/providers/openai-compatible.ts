import type { Logger } from '../../log';
import type { Settings } from '../../settings/schema';
import { noKeySent } from '../errors';
import { originOf } from '../key-origin';
import { createOpenAIClient } from '../openai-client';
import type { ModelClient } from '../types';
import type { ModelProvider } from './table';

/** OpenAI's own endpoint, the default, which always needs a key (a local server may need none). */
const OPENAI_ORIGIN = 'https://api.openai.com';

/** The model client the settings describe (endpoint, model, limits), with the given key. */
export function clientFromSettings(s: Settings, apiKey: string | undefined, log: Logger): ModelClient {
  return createOpenAIClient({
    baseUrl: s['model.baseUrl'],
    apiKey: apiKey || 'none',
    model: s['model.name'],
    maxOutputTokens: s['model.maxOutputTokens'],
    requestTimeoutS: s['model.requestTimeoutS'],
    maxRetries: s['model.maxRetries'],
    cacheHints: s['model.cacheHints'],
    reasoningEffort: s['model.reasoningEffort'],
    log: (level, m) => log[level](m),
  });
}

/** An OpenAI-compatible endpoint (`model.baseUrl`): OpenAI, OpenRouter, Ollama, LM Studio, vLLM, ... */
export const openAICompatible: ModelProvider = {
  usesApiKey: true,
  createClient: clientFromSettings,
  /** GET /models. */
  async listModels(settings, apiKey) {
    const { default: OpenAI } = await import('openai');
    const client = new OpenAI({ baseURL: settings['model.baseUrl'], apiKey: apiKey || 'none', timeout: 10_000, maxRetries: 0 });
    const out: string[] = [];
    for await (const m of client.models.list()) out.push(m.id);
    return out.sort();
  },
  setup: (settings, apiKey) => ({ needsKey: noKeySent(apiKey ?? '') && originOf(settings['model.baseUrl']) === OPENAI_ORIGIN }),
};
