import * as path from 'node:path';
import type { ToolCall } from '../conversation/messages';
import { resolveToolPath } from '../tools/paths';
import { isMultiRoot } from '../tools/roots';
import { clipToCap } from './caps';
import type { ContextFile } from './context-files';

/** Argument names that point at files or folders a call touches. */
const PATH_ARGS = ['path', 'cwd'];

function touchedDirs(call: ToolCall, root: string): string[] {
  let args: Record<string, unknown>;
  try {
    args = JSON.parse(call.arguments);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const k of PATH_ARGS) {
    const v = args?.[k];
    if (typeof v !== 'string' || !v) continue;
    if (isMultiRoot(root)) {
      // Several folders: the instruction files are named `folder/path`, as resolved paths display.
      const r = resolveToolPath(root, v);
      if (r.inside) out.push(r.display);
      continue;
    }
    const rel = path.relative(root, path.resolve(root, v)).split(path.sep).join('/');
    if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
    out.push(rel);
  }
  return out;
}

function governs(dir: string, touched: string): boolean {
  return dir === '' || touched === dir || touched.startsWith(`${dir}/`);
}

/**
 * Nested instruction files that were not in the prompt up front (lean subagents) are attached
 * to a tool's result the first time the tool touches their folder, once per session.
 */
export class NestedContextAttacher {
  /** The folders' files attached so far, per session (a slice of the agent's per-session states). */
  constructor(private readonly attached: Map<string, Set<string>> = new Map()) {}

  /** Text to append to the result of `call`, or undefined. `pending` are the files not yet in the prompt. */
  attachmentFor(sessionId: string, call: ToolCall, root: string, pending: ContextFile[], perFileCap: number): string | undefined {
    const dirs = touchedDirs(call, root);
    if (!dirs.length || !pending.length) return undefined;
    let done = this.attached.get(sessionId);
    if (!done) this.attached.set(sessionId, (done = new Set()));
    const hits = pending.filter((f) => !done!.has(f.rel) && dirs.some((d) => governs(f.dir, d)));
    if (!hits.length) return undefined;
    for (const f of hits) done.add(f.rel);
    return hits.map((f) => `[instructions from ${f.rel}, which governs ${f.dir}/]\n${clipToCap(f.text, perFileCap, f.rel).trimEnd()}`).join('\n\n');
  }
}
