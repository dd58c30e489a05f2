import type { Logger } from '../log';
import type { Settings } from '../settings/schema';
import { createOpenAIClient } from './openai-client';
import type { ModelClient } from './types';

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
    log: (level, m) => log[level](m),
  });
}
