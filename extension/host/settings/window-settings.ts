import type * as vscode from 'vscode';
import type { Logger } from '../../core/log';
import type { ModelProvider, ProviderTable } from '../../core/model/providers';
import { formatIssue, workspaceSpendNotice, type LoadedSettings } from '../../core/settings/load';
import type { Settings } from '../../core/settings/schema';
import { broadRootWarning } from '../../core/tools/policy/broad-root';
import { resolveApiKey } from './api-key';
import { loadHostSettings } from './settings-source';
import { confirmWorkspaceEndpoint } from './workspace-endpoint';

/**
 * The window's settings as loaded (settings files and VS Code's, under Workspace Trust), the model
 * provider they name, and the API key for its endpoint (SecretStorage). AgentHost loads them again
 * when the configuration, trust or a key changes.
 */
export class WindowSettings {
  private current?: LoadedSettings;
  private key: string | undefined;
  /** The user declined the model endpoint this workspace's settings chose: its endpoint keys are left out until the window reloads. */
  private endpointDeclined = false;

  constructor(
    private readonly o: {
      context: vscode.ExtensionContext;
      log: Logger;
      /** Where models come from: the core's providers and the editor's own (vscode-lm). */
      providers: ProviderTable;
      workspaceRoot: () => string | undefined;
      trusted: () => boolean;
      /** After each load (the MCP servers follow the settings). */
      reloaded: () => void;
      /** The key was read again after a load: the chat's header follows. */
      keyLoaded: () => void;
      /** What the chat should say (the user declined the workspace's endpoint). */
      notice: (text: string) => void;
    },
  ) {}

  /** The settings as loaded, with what was ignored and why. */
  get loaded(): LoadedSettings | undefined {
    return this.current;
  }

  get settings(): Settings {
    return this.current!.settings;
  }

  get apiKey(): string | undefined {
    return this.key;
  }

  reload(): Settings {
    const loaded = loadHostSettings(this.o.workspaceRoot(), this.o.trusted(), { withoutWorkspaceEndpoint: this.endpointDeclined });
    for (const m of loaded.messages) this.o.log.warn(m);
    this.current = loaded;
    this.o.reloaded();
    void this.loadApiKey().then(() => this.o.keyLoaded());
    return this.settings;
  }

  /** The key for the current endpoint (api-key.ts); `ask` lets it confirm a workspace-chosen origin with the user. */
  async loadApiKey(ask = false): Promise<void> {
    // Before a request: a model endpoint the workspace chose is used only once the user said so (workspace-endpoint.ts).
    if (ask && !this.endpointDeclined && (await confirmWorkspaceEndpoint(this.o.context, this.current!, true)) === 'declined') {
      this.endpointDeclined = true;
      this.reload();
      this.o.notice(`Snowpea uses your own model endpoint (${this.settings['model.baseUrl']}): you declined the one this workspace's settings chose. Reload the window to be asked again.`);
    }
    this.key = await resolveApiKey(this.o.context, this.current!, ask);
  }

  /** The provider model.provider names. */
  provider(): ModelProvider {
    return this.o.providers.get(this.settings['model.provider']);
  }

  /** The provider needs a key and has none (the default OpenAI endpoint): the chat shows a setup card instead of failing on send. */
  setupNeeded(): boolean {
    return this.provider().setup(this.settings, this.key).needsKey;
  }

  /** What the chat should say about the trust boundary: workspace settings that were ignored, a workspace at the home folder. */
  trustNotices(): string[] {
    const workspaceRoot = this.o.workspaceRoot();
    const ignored = (this.current?.ignored ?? []).map((i) => `Snowpea ignored ${formatIssue(i)}`);
    const broad = workspaceRoot ? broadRootWarning(workspaceRoot) : undefined;
    const spend = this.current ? workspaceSpendNotice(this.current) : undefined;
    return [...ignored, ...(broad ? [`Careful: ${broad}`] : []), ...(spend ? [`Note: ${spend}`] : [])];
  }
}
