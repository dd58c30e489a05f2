import * as vscode from 'vscode';
import type { Logger } from '../core/log';
import { clientFromSettings } from '../core/model/from-settings';
import type { ModelClient } from '../core/model/types';
import type { Settings } from '../core/settings/schema';
import { lmApiFrom } from './lm-api';
import { createLmClient } from './lm-client';

/** The model client the settings ask for: the editor's language models (vscode-lm) or an OpenAI-compatible endpoint. */
export function hostModelClient(settings: Settings, apiKey: string | undefined, log: Logger): ModelClient {
  if (settings['model.provider'] === 'vscode-lm') {
    const api = lmApiFrom(vscode);
    if ('missing' in api) throw new Error(`snowpea.model.provider is "vscode-lm", but ${api.missing}. Set it to "openai-compatible".`);
    return createLmClient(api, { model: settings['model.name'], maxOutputTokens: settings['model.maxOutputTokens'], log });
  }
  return clientFromSettings(settings, apiKey, log);
}

/** Model ids the endpoint lists (GET /models), or the editor's language models, for Select Model. */
export async function availableModels(settings: Settings, apiKey: string | undefined): Promise<string[]> {
  if (settings['model.provider'] === 'vscode-lm') {
    const api = lmApiFrom(vscode);
    if ('missing' in api) return [];
    return (await api.lm.selectChatModels()).map((m) => m.id).sort();
  }
  const { default: OpenAI } = await import('openai');
  const client = new OpenAI({ baseURL: settings['model.baseUrl'], apiKey: apiKey || 'none', timeout: 10_000, maxRetries: 0 });
  const out: string[] = [];
  for await (const m of client.models.list()) out.push(m.id);
  return out.sort();
}
