import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { specialKind } from '../file-kind';
import { resolveToolPath, rootOfPath } from '../paths';
import { IgnoreStack } from '../search/walk';
import { defineTool, errorResult, okResult } from '../types';
import { notFoundResult } from '../core/missing';
import { TOOL } from '../names';

const MAX_ENTRIES = 500;

const input = z.strictObject({
  path: z.string().min(1).optional().describe('Folder to list, relative to the workspace root (default: the workspace root).'),
});

function size(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

function childCount(dir: string): string {
  try {
    const n = fs.readdirSync(dir).length;
    return `${n} item${n === 1 ? '' : 's'}`;
  } catch {
    return 'unreadable';
  }
}

export const listDirTool = defineTool({
  name: TOOL.list_dir,
  traits: { readOnly: true, repeat: 'scan', subagents: true, images: false },
  group: 'fs',
  permission: 'read',
  deferred: true,
  summary: 'List a folder: subfolders with item counts, files with sizes.',
  description:
    'List one folder: subfolders first (name/ and how many items they hold), then files with sizes. ' +
    'Entries ignored by .gitignore are marked (ignored) and not opened. Use glob to search deeper.',
  input,
  describeCall: (a) => `list ${a.path ?? '.'}`,
  approval: (a) => ({ paths: [{ path: a.path ?? '.', write: false }] }),
  async run(args, ctx) {
    const r = resolveToolPath(ctx.workspaceRoot, args.path ?? '.');
    if (!r.exists) return notFoundResult(ctx.workspaceRoot, r);
    const target = fs.statSync(r.real);
    if (!target.isDirectory()) {
      const kind = specialKind(target);
      return errorResult('invalid_arguments', kind ? `${r.display} is ${kind}, not a folder; it cannot be listed or read.` : `${r.display} is a file; use read_file to read it.`);
    }
    const ig = IgnoreStack.at(rootOfPath(ctx.workspaceRoot, r.real).real, r.real);
    const entries = (await fs.promises.readdir(r.real, { withFileTypes: true })).filter((e) => e.name !== '.git');
    const dirs: string[] = [];
    const files: string[] = [];
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const abs = path.join(r.real, e.name);
      let st: fs.Stats;
      try {
        st = fs.statSync(abs);
      } catch {
        files.push(`${e.name} (broken link)`);
        continue;
      }
      const link = e.isSymbolicLink() ? ' (link)' : '';
      if (st.isDirectory()) {
        const ignored = ig.ignores(abs, true);
        dirs.push(`${e.name}/ (${ignored ? 'ignored' : childCount(abs)})${link}`);
      } else {
        const kind = specialKind(st);
        files.push(`${e.name} (${kind ? `${kind}, not readable` : size(st.size)}${ig.ignores(abs, false) ? ', ignored' : ''})${link}`);
      }
    }
    const all = [...dirs, ...files];
    if (all.length === 0) return okResult(`${r.display} is empty`);
    const shown = all.slice(0, MAX_ENTRIES);
    if (all.length > shown.length) shown.push(`[… ${all.length - shown.length} more entries; use glob to narrow]`);
    return okResult(`${r.display}:\n${shown.join('\n')}`);
  },
});
