import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChatViewProvider } from './chat-view';

/** `@path` as the composer and the core's @path expansion read it: workspace-relative, quoted when it has spaces. */
export function mentionFor(fsPath: string, workspaceRoot: string | undefined): string {
  const rel = workspaceRoot && !path.relative(workspaceRoot, fsPath).startsWith('..') ? path.relative(workspaceRoot, fsPath).split(path.sep).join('/') : fsPath;
  return /\s/.test(rel) ? `@"${rel}"` : `@${rel}`;
}

/** Snowpea: Attach File... / Attach Image... — pick files; they join the draft as `@path` mentions (images attach when sent). */
export async function attachFiles(chat: ChatViewProvider, images: boolean): Promise<void> {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: true,
    defaultUri: root,
    openLabel: 'Attach',
    ...(images ? { filters: { Images: ['png', 'jpg', 'jpeg', 'gif', 'webp'] } } : {}),
  });
  if (!picked?.length) return;
  await chat.insertIntoComposer(picked.map((u) => mentionFor(u.fsPath, root?.fsPath)).join(' ') + ' ');
}
