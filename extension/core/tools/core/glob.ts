import * as fs from 'node:fs';
import * as path from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import { resolveToolPath, rootOfPath } from '../paths';
import { printedPath } from '../search/grep-js';
import { walkFiles } from '../search/walk';
import { defineTool, errorResult, okResult } from '../types';
import { notFoundResult } from './missing';
import { TOOL } from '../names';

const MAX_FILES = 500;

const input = z.strictObject({
  pattern: z.string().min(1).describe('Relative to path: "**/*.ts", "src/*.{js,jsx}"; "*.md" is top level only.'),
  path: z.string().min(1).optional().describe('Folder to search from (default: workspace root).'),
});

/** The pattern without a leading ./, or undefined when it is absolute or climbs with `..` (refused in run). */
function cleanPattern(pattern: string): string | undefined {
  const p = pattern.replace(/^\.\//, '');
  return path.isAbsolute(p) || p.split('/').includes('..') ? undefined : p;
}

/** The folder the walk starts in, relative to the workspace: path plus the pattern's static prefix ("src" of "src/**\/*.ts"). */
function startOf(a: { pattern: string; path?: string }): string {
  const p = cleanPattern(a.pattern);
  const prefix = p === undefined ? '' : picomatch.scan(p).base;
  return prefix ? path.join(a.path ?? '.', prefix) : (a.path ?? '.');
}

export const globTool = defineTool({
  name: TOOL.glob,
  traits: { readOnly: true, repeat: 'scan', subagents: true, images: false },
  group: 'core',
  permission: 'read',
  deferred: false,
  summary: 'Find files by glob pattern (honours .gitignore).',
  description:
    `List files matching a glob, sorted, at most ${MAX_FILES} (.gitignore'd files left out).`,
  input,
  describeCall: (a) => `glob ${a.pattern}${a.path ? ` in ${a.path}` : ''}`,
  // The walk's start folder is checked too: a link in the pattern's prefix (`lnetc/*` with lnetc -> /etc) asks, as list_dir of it does (L1).
  approval: (a) => ({ paths: [...new Set([a.path ?? '.', startOf(a)])].map((p) => ({ path: p, write: false })) }),
  async run(args, ctx) {
    const base = resolveToolPath(ctx.workspaceRoot, args.path ?? '.');
    if (!base.exists) return notFoundResult(ctx.workspaceRoot, base);
    if (!fs.statSync(base.real).isDirectory()) return errorResult('invalid_arguments', `${base.display} is a file; give a folder as path.`);
    const pattern = cleanPattern(args.pattern);
    if (pattern === undefined) {
      return errorResult('invalid_arguments', `the pattern must be relative and stay below path (no leading / and no ..); to search another folder, pass it as path.`);
    }
    const isMatch = picomatch(pattern, { dot: true });
    // Walk only below the pattern's static prefix ("src" of "src/**/*.ts").
    const prefix = picomatch.scan(pattern).base;
    const start = prefix ? path.join(base.real, prefix) : base.real;
    if (!fs.existsSync(start)) return okResult(`no files match ${args.pattern} in ${base.display}`);
    const { real: root, prefix: folder } = rootOfPath(ctx.workspaceRoot, base.real);
    const found: string[] = [];
    let total = 0;
    for await (const abs of walkFiles(start, { root, signal: ctx.signal })) {
      if (!isMatch(path.relative(base.real, abs).split(path.sep).join('/'))) continue;
      total++;
      if (found.length < MAX_FILES) found.push(`${folder}${printedPath(root, abs)}`);
    }
    if (total === 0) return okResult(`no files match ${args.pattern} in ${base.display}`);
    found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (total > found.length) found.push(`[… ${total - found.length} more files not shown (${total} in all); narrow the pattern or path]`);
    return okResult(found.join('\n'));
  },
});
