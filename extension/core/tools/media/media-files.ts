/** Where media tools read inputs and save outputs in the workspace, and how saved images reach the attachment store. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ImageRef } from '../../conversation/messages';
import { notFoundResult } from '../core/missing';
import { checkWritable, writerOf } from '../core/write-target';
import { resolveToolPath, type ResolvedPath } from '../paths';
import { errorResult, type ApprovalScope, type ToolContext, type ToolResult } from '../types';

/** A slug for a file name from a prompt: its first words, lower-case, dashes. */
export function slugOf(text: string, words = 6): string {
  const slug = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(/\s+/)
    .slice(0, words)
    .join('-');
  return slug.slice(0, 48).replace(/-+$/, '') || 'image';
}

/** `dir/base.ext`, or `dir/base-2.ext`, ... when it exists (workspace-relative posix). */
export function freePath(workspaceRoot: string, rel: string): string {
  const ext = path.posix.extname(rel);
  const stem = rel.slice(0, rel.length - ext.length);
  let candidate = rel;
  for (let n = 2; fs.existsSync(path.resolve(workspaceRoot, candidate)); n++) candidate = `${stem}-${n}${ext}`;
  return candidate;
}

/** `dir/name-<suffix>.<ext>` beside an input file (workspace-relative when the input is). */
export function besidePath(workspaceRoot: string, input: string, suffix: string, ext?: string): string {
  const dir = path.posix.dirname(input.split(path.sep).join('/'));
  const e = ext ?? path.posix.extname(input);
  const base = path.posix.basename(input.split(path.sep).join('/'), path.posix.extname(input));
  return freePath(workspaceRoot, path.posix.join(dir, `${base}-${suffix}${e.startsWith('.') ? e : `.${e}`}`));
}

/** The approval of a tool that reads one workspace file and saves its result as another: the summary and both paths. */
export function derivedFileApproval(summary: string, input: string, output: string): ApprovalScope {
  return {
    summary,
    paths: [
      { path: input, write: false },
      { path: output, write: true },
    ],
  };
}

/** Resolves an input file that must exist; a ToolResult when it does not. */
export function inputFile(ctx: ToolContext, p: string): ResolvedPath | ToolResult {
  const r = resolveToolPath(ctx.workspaceRoot, p);
  if (!r.exists) return notFoundResult(ctx.workspaceRoot, r);
  if (fs.statSync(r.real).isDirectory()) return errorResult('invalid_arguments', `${r.display} is a folder; give a file path.`);
  return r;
}

export function isResult(x: unknown): x is ToolResult {
  return !!x && typeof x === 'object' && 'ok' in x && 'content' in x;
}

/** Writes the bytes (through the host's writer when there is one); returns the resolved target or a refusal. */
export async function saveOutput(ctx: ToolContext, p: string, bytes: Uint8Array): Promise<ResolvedPath | ToolResult> {
  const r = resolveToolPath(ctx.workspaceRoot, p);
  const refusal = checkWritable(r);
  if (refusal) return refusal;
  await writerOf(ctx).write(r.abs, bytes, ctx.signal);
  return r;
}

/** Puts a saved image into the attachment store so the model sees it; a note instead when that is not possible. */
export async function attachSaved(ctx: ToolContext, r: ResolvedPath, source: string): Promise<{ images?: ImageRef[]; note: string }> {
  const store = ctx.attachments;
  if (!store) return { note: '' };
  try {
    const ref = await store.addFile(r.real, { name: r.display, source, signal: ctx.signal });
    return { images: [ref], note: `\nimage attached: ${ref.name}` };
  } catch (e) {
    return { note: `\n(the image could not be attached: ${(e as Error).message})` };
  }
}
