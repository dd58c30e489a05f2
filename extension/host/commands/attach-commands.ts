import * as path from 'node:path';
import * as vscode from 'vscode';
import { workspaceRootsOf } from '../../core/tools/roots';
import { MAX_IMAGE_BYTES } from '../../protocol';
import type { ChatViewProvider } from '../view/chat-view';

/** `@path` as the composer and the core's @path expansion read it: workspace-relative, quoted when it has spaces. */
export function mentionFor(fsPath: string, workspaceRoot: string | undefined): string {
  const rel = workspaceRoot ? relativeMention(fsPath, workspaceRoot) : fsPath;
  return /\s/.test(rel) ? `@"${rel}"` : `@${rel}`;
}

/** Workspace-relative, `folder/path` in a multi-root workspace; absolute outside every folder. */
function relativeMention(fsPath: string, workspaceRoot: string): string {
  const roots = workspaceRootsOf(workspaceRoot);
  for (const r of roots) {
    const rel = path.relative(r.path, fsPath);
    if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
    const posix = rel.split(path.sep).join('/');
    if (roots.length === 1) return posix;
    if (r.name !== undefined) return posix ? `${r.name}/${posix}` : r.name;
  }
  return fsPath;
}

const IMAGE_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

/**
 * Snowpea: Attach File... / Attach Image... — pick files. Files join the draft as `@path`
 * mentions; images join the composer as thumbnails, checked and prepared as pasted ones are
 * (over 20 MB: refused on the thumbnail, without reading the file).
 */
export async function attachFiles(chat: ChatViewProvider, images: boolean): Promise<void> {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: true,
    defaultUri: root,
    openLabel: 'Attach',
    ...(images ? { filters: { Images: Object.keys(IMAGE_TYPES) } } : {}),
  });
  if (!picked?.length) return;
  if (!images) return chat.insertIntoComposer(picked.map((u) => mentionFor(u.fsPath, root?.fsPath)).join(' ') + ' ');
  for (const uri of picked) {
    const name = path.basename(uri.fsPath);
    const mime = IMAGE_TYPES[path.extname(name).slice(1).toLowerCase()] ?? 'application/octet-stream';
    const { size } = await vscode.workspace.fs.stat(uri);
    const dataBase64 = size <= MAX_IMAGE_BYTES ? Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('base64') : undefined;
    await chat.attachToComposer({ name, mime, size, ...(dataBase64 !== undefined ? { dataBase64 } : {}) });
  }
}
