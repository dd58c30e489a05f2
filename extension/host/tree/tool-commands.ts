import * as vscode from 'vscode';
import type { AgentHost } from '../agent-host';
import { toolSchemaUri } from './tool-schema-docs';
import type { ToolNode } from './tools-tree';

function toolName(arg: unknown): string | undefined {
  const node = arg as ToolNode | undefined;
  return node?.kind === 'tool' ? node.tool.name : undefined;
}

/** Edits snowpea.tools.eager where it is set: the workspace's value wins over the user's, so editing the user's would change nothing. */
async function setEager(name: string, eager: boolean): Promise<void> {
  const cfg = vscode.workspace.getConfiguration('snowpea');
  const inspected = cfg.inspect<string[]>('tools.eager');
  const target = inspected?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  const current = cfg.get<string[]>('tools.eager', []);
  const next = eager ? [...new Set([...current, name])] : current.filter((n) => n !== name);
  await cfg.update('tools.eager', next, target);
}

/** Tools tree actions: Add to Eager / Remove from Eager (snowpea.tools.eager), Copy Name, Show Schema. */
export function toolCommandTable(host: AgentHost): Record<string, (...args: unknown[]) => unknown> {
  return {
    'snowpea.addToEager': async (arg) => {
      const name = toolName(arg);
      if (name) await setEager(name, true);
    },
    'snowpea.removeFromEager': async (arg) => {
      const name = toolName(arg);
      if (name) await setEager(name, false);
    },
    'snowpea.copyToolName': async (arg) => {
      const name = toolName(arg);
      if (name) await vscode.env.clipboard.writeText(name);
    },
    'snowpea.showToolSchema': async (arg) => {
      const name = toolName(arg);
      if (!name || !host.registry.get(name)) return;
      await vscode.window.showTextDocument(toolSchemaUri(name), { preview: true });
    },
  };
}
