import type { Logger } from '../../log';
import type { Settings } from '../../settings/schema';
import type { ModelClient } from '../types';

/** What a provider's setup still lacks before a first request can go out. */
export interface ProviderSetup {
  /** Requests need an API key and none is set (the chat shows its setup card instead of failing on send). */
  needsKey: boolean;
}

/**
 * One source of models (`model.provider`): how its client is made, how its models are listed,
 * and how its setup is judged. Every request the agent sends goes through the client it makes:
 * the turns' rounds, with their cache hints, and the compaction request alike.
 */
export interface ModelProvider {
  /** Whether its requests carry the user's API key (the host loads the key before listing models). */
  readonly usesApiKey: boolean;
  createClient(settings: Settings, apiKey: string | undefined, log: Logger): ModelClient;
  /** Model ids to pick from (Select Model), sorted; may reject when the provider cannot be reached. */
  listModels(settings: Settings, apiKey: string | undefined): Promise<string[]>;
  setup(settings: Settings, apiKey: string | undefined): ProviderSetup;
}

/** `model.provider` names a provider this table does not have (vscode-lm in the CLI, say). */
export class UnknownProviderError extends Error {
  constructor(
    readonly provider: string,
    readonly known: string[],
  ) {
    super(`model.provider "${provider}" is not available here; the known providers are: ${known.join(', ') || 'none'}`);
  }
}

/** Provider name -> provider. The core's rows (providers/index.ts) come first; a host registers its own (VS Code: vscode-lm). */
export class ProviderTable {
  private readonly rows = new Map<string, ModelProvider>();

  constructor(rows: Record<string, ModelProvider> = {}) {
    for (const [name, provider] of Object.entries(rows)) this.register(name, provider);
  }

  /** Adds a row; disposing the result takes it out again. */
  register(name: string, provider: ModelProvider): { dispose(): void } {
    if (this.rows.has(name)) throw new Error(`model provider "${name}" is registered already`);
    this.rows.set(name, provider);
    return { dispose: () => void (this.rows.get(name) === provider && this.rows.delete(name)) };
  }

  has(name: string): boolean {
    return this.rows.has(name);
  }

  names(): string[] {
    return [...this.rows.keys()].sort();
  }

  /** The provider called `name`; UnknownProviderError, naming the known ones, when there is none. */
  get(name: string): ModelProvider {
    const provider = this.rows.get(name);
    if (!provider) throw new UnknownProviderError(name, this.names());
    return provider;
  }
}
