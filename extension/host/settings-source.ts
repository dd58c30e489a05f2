import * as vscode from 'vscode';
import { editorSources } from '../core/settings/editor-layers';
import { fileSources } from '../core/settings/files';
import { formatIssue, mergeSettings, type LoadedSettings } from '../core/settings/load';

/** Merges defaults, ~/.snowpea/settings.json, .snowpea/settings.json (trusted workspaces) and VS Code's user, workspace and folder settings (later wins). */
export function loadHostSettings(workspaceRoot: string | undefined, trusted: boolean): LoadedSettings & { messages: string[] } {
  const cfg = vscode.workspace.getConfiguration('snowpea');
  const files = fileSources(trusted ? workspaceRoot : undefined);
  const loaded = mergeSettings([...files, ...editorSources((key) => cfg.inspect(key), trusted)]);
  const messages = [...files.flatMap((f) => (f.error ? [f.error] : [])), ...loaded.issues.map(formatIssue)];
  return { ...loaded, messages };
}
