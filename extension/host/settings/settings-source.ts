import * as vscode from 'vscode';
import { editorSources } from '../../core/settings/editor-layers';
import { fileSources } from '../../core/settings/files';
import { formatIssue, mergeSettings, withoutWorkspaceValues, type LoadedSettings } from '../../core/settings/load';
import type { SettingKey } from '../../core/settings/schema';

/** The keys that choose where model requests go; left out of workspace sources once the user declined that endpoint. */
export const ENDPOINT_KEYS: readonly SettingKey[] = ['model.baseUrl', 'model.provider'];

/**
 * Merges defaults, ~/.snowpea/settings.json, .snowpea/settings.json (trusted workspaces) and VS Code's
 * user, workspace and folder settings (later wins). `withoutWorkspaceEndpoint`: the user declined the
 * endpoint the workspace chose (workspace-endpoint.ts), so its endpoint keys are left out.
 */
export function loadHostSettings(workspaceRoot: string | undefined, trusted: boolean, o: { withoutWorkspaceEndpoint?: boolean } = {}): LoadedSettings & { messages: string[] } {
  const cfg = vscode.workspace.getConfiguration('snowpea');
  const files = fileSources(trusted ? workspaceRoot : undefined);
  const sources = [...files, ...editorSources((key) => cfg.inspect(key), trusted)];
  const loaded = mergeSettings(o.withoutWorkspaceEndpoint ? withoutWorkspaceValues(sources, ENDPOINT_KEYS) : sources);
  const messages = [...files.flatMap((f) => (f.error ? [f.error] : [])), ...loaded.issues.map(formatIssue)];
  return { ...loaded, messages };
}
