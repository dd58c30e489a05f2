import * as vscode from 'vscode';
import type { ModelProvider } from '../../core/model/providers';
import { lmApiFrom } from './lm-api';
import { createLmClient } from './lm-client';

/**
 * `model.provider: "vscode-lm"`: the editor's language models (GitHub Copilot or any extension
 * that provides chat models). Only VS Code has them, so only the host registers this row.
 */
export const vscodeLmProvider: ModelProvider = {
  usesApiKey: false,
  createClient(settings, _apiKey, log) {
    const api = lmApiFrom(vscode);
    if ('missing' in api) throw new Error(`snowpea.model.provider is "vscode-lm", but ${api.missing}. Set it to "openai-compatible".`);
    return createLmClient(api, { model: settings['model.name'], maxOutputTokens: settings['model.maxOutputTokens'], log });
  },
  async listModels() {
    const api = lmApiFrom(vscode);
    if ('missing' in api) return [];
    return (await api.lm.selectChatModels()).map((m) => m.id).sort();
  },
  // The editor asks for access itself, on the first request.
  setup: () => ({ needsKey: false }),
};
