import * as vscode from 'vscode';
import { fileSources } from '../core/settings/files';
import { formatIssue, mergeSettings, type LoadedSettings, type SettingsSource } from '../core/settings/load';
import { settingDefs, settingKeys } from '../core/settings/schema';

/** The VS Code layer: only values the user actually set (inspect), so defaults from files are not masked. */
function vscodeSource(trusted: boolean): SettingsSource {
  const cfg = vscode.workspace.getConfiguration('snowpea');
  const values: Record<string, unknown> = {};
  for (const key of settingKeys) {
    const i = cfg.inspect(key);
    if (!i) continue;
    const set = [i.globalValue, trusted || !settingDefs[key].restricted ? i.workspaceValue : undefined, trusted || !settingDefs[key].restricted ? i.workspaceFolderValue : undefined];
    for (const v of set) if (v !== undefined) values[key] = v;
  }
  return { name: 'VS Code settings', values };
}

/** Merges defaults, ~/.snowpea/settings.json, .snowpea/settings.json and VS Code settings (later wins). */
export function loadHostSettings(workspaceRoot: string | undefined, trusted: boolean): LoadedSettings & { messages: string[] } {
  const files = fileSources(trusted ? workspaceRoot : undefined);
  const loaded = mergeSettings([...files, vscodeSource(trusted)]);
  const messages = [...files.flatMap((f) => (f.error ? [f.error] : [])), ...loaded.issues.map(formatIssue)];
  return { ...loaded, messages };
}
