import { anthropicProvider } from './anthropic';
import { openAICompatible } from './openai-compatible';
import { ProviderTable } from './table';

export { ProviderTable, UnknownProviderError, type ModelProvider, type ProviderSetup } from './table';

/**
 * The providers every host has (the CLI gets exactly these); VS Code adds vscode-lm. A new
 * provider is one file beside this one and one row here (and its name in model.provider's enum).
 */
export function coreProviders(): ProviderTable {
  return new ProviderTable({
    'openai-compatible': openAICompatible,
    anthropic: anthropicProvider,
  });
}
