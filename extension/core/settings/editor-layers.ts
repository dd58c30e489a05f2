import type { SettingsSource } from './load';
import { settingDefs, settingKeys, type SettingKey } from './schema';

/** What an editor reports for one key, per layer (VS Code's `WorkspaceConfiguration.inspect`). */
export interface LayeredValue {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

const LAYERS = [
  { layer: 'globalValue', name: 'VS Code user settings', scope: 'user' },
  { layer: 'workspaceValue', name: 'VS Code workspace settings (.vscode/settings.json or the .code-workspace file)', scope: 'workspace' },
  { layer: 'workspaceFolderValue', name: 'VS Code folder settings (.vscode/settings.json)', scope: 'workspace' },
] as const;

/**
 * The editor's settings as one source per layer, holding only values someone set (so defaults
 * from files are not masked). Workspace and folder values are workspace sources: user-only keys are
 * refused there by mergeSettings, and in an untrusted workspace keys that need trust are left out.
 */
export function editorSources(inspect: (key: SettingKey) => LayeredValue | undefined, trusted: boolean): SettingsSource[] {
  return LAYERS.map(({ layer, name, scope }) => {
    const values: Record<string, unknown> = {};
    for (const key of settingKeys) {
      const v = inspect(key)?.[layer];
      if (v === undefined) continue;
      if (scope === 'workspace' && !trusted && settingDefs[key].trust !== 'any') continue;
      values[key] = v;
    }
    return { name, scope, values };
  });
}
