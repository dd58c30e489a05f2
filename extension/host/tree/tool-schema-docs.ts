import * as vscode from 'vscode';
import type { ToolRegistry } from '../../core/tools/registry';

/** The scheme of the Tools tree's read-only schema documents (`snowpea-schema:/read_file.json`). */
export const TOOL_SCHEMA_SCHEME = 'snowpea-schema';

/** The document that shows a tool's schema: named for the tool, `.json` so it opens as JSON. */
export function toolSchemaUri(name: string): vscode.Uri {
  return vscode.Uri.from({ scheme: TOOL_SCHEMA_SCHEME, path: `/${name}.json` });
}

/** What a tool's schema document holds: how the tool is listed, and the JSON Schema of its arguments. */
export function toolSchemaText(registry: ToolRegistry, name: string): string | undefined {
  const tool = registry.get(name);
  if (!tool) return undefined;
  const doc = { name: tool.name, group: tool.group, permission: tool.permission, deferred: tool.deferred, description: tool.description, parameters: registry.jsonSchemaOf(tool.name) };
  return JSON.stringify(doc, null, 2);
}

/**
 * Serves the schema documents: virtual and read-only, so closing one never asks to save it (an
 * untitled document did). The text is made from the registry when the document is opened.
 */
export class ToolSchemaDocuments implements vscode.TextDocumentContentProvider {
  constructor(private readonly registry: ToolRegistry) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    const name = uri.path.replace(/^\//, '').replace(/\.json$/, '');
    return toolSchemaText(this.registry, name) ?? `// no tool named ${JSON.stringify(name)} is registered now\n`;
  }

  register(): vscode.Disposable {
    return vscode.workspace.registerTextDocumentContentProvider(TOOL_SCHEMA_SCHEME, this);
  }
}
