import * as fs from 'node:fs';
import { z } from 'zod';
import { resolveToolPath, rootOfPath } from '../paths';
import { makeJsGrepBackend, type JsGrepOptions } from '../search/grep-js';
import { findRipgrep, makeRipgrepBackend } from '../search/grep-rg';
import type { GrepOutcome } from '../search/grep-types';
import { defineTool, errorResult, okResult, type AnyTool } from '../types';
import { notFoundResult } from './missing';
import { TOOL } from '../names';
import { notRegularFileMessage } from '../file-kind';

const DEFAULT_MAX = 100;
const LINE_CLIP = 300;

const input = z.strictObject({
  pattern: z.string().min(1).describe('Regular expression.'),
  path: z.string().min(1).optional().describe('File or folder (default: the workspace).'),
  glob: z.string().min(1).optional().describe('Path filter: "*.ts" (any folder), "src/**/*.py"; leading ! excludes.'),
  ignore_case: z.boolean().optional().describe('Case-insensitive.'),
  max_results: z.number().int().min(1).max(2000).optional().describe(`Most lines to return (default ${DEFAULT_MAX}).`),
});

export interface GrepToolOptions {
  /** Path to rg; null forces the JS fallback; undefined looks rg up on PATH. */
  ripgrep?: string | null;
  /** Deadline and per-file size limit of the JS fallback (defaults: 10 s, 10 MB). */
  js?: JsGrepOptions;
}

const mb = (bytes: number) => (bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${bytes} bytes`);

/** The line saying which files were too large to search, if any. */
function skippedNote(out: Extract<GrepOutcome, { ok: true }>): string[] {
  const big = out.skippedLarge;
  if (!big) return [];
  const more = big.count > big.examples.length ? `, … (${big.count} in all)` : '';
  return [`[not searched: ${big.count} file${big.count === 1 ? '' : 's'} larger than ${mb(big.limitBytes)}: ${big.examples.join(', ')}${more}]`];
}

/** grep with a chosen backend (tests run both and compare). */
export function makeGrepTool(opts: GrepToolOptions = {}): AnyTool {
  return defineTool({
    name: TOOL.grep,
    traits: { readOnly: true, repeat: 'scan', subagents: true, images: false },
    group: 'core',
    permission: 'read',
    deferred: false,
    summary: 'Search file contents with a regular expression (honours .gitignore).',
    description:
      'Regex search of the workspace; returns path:line:text. Skips .gitignore\'d files and .git.',
    input,
    describeCall: (a) => `grep /${a.pattern}/${a.ignore_case ? 'i' : ''}${a.path ? ` in ${a.path}` : ''}${a.glob ? ` (${a.glob})` : ''}`,
    approval: (a) => ({ paths: [{ path: a.path ?? '.', write: false }] }),
    async run(args, ctx) {
      const base = resolveToolPath(ctx.workspaceRoot, args.path ?? '.');
      if (!base.exists) return notFoundResult(ctx.workspaceRoot, base);
      const special = notRegularFileMessage(base.display, await fs.promises.stat(base.real));
      if (special) return errorResult('invalid_arguments', special);
      const rg = opts.ripgrep === undefined ? findRipgrep() : opts.ripgrep;
      const backend = rg ? makeRipgrepBackend(rg) : makeJsGrepBackend(opts.js);
      // The folder the search starts in (a multi-root workspace's lines name it: `folder/path`).
      const home = rootOfPath(ctx.workspaceRoot, base.real);
      const out = await backend({
        root: home.real,
        base: base.real,
        pattern: args.pattern,
        glob: args.glob,
        ignoreCase: args.ignore_case ?? false,
        maxResults: args.max_results ?? DEFAULT_MAX,
        signal: ctx.signal,
      });
      if (!out.ok) return errorResult('invalid_arguments', `pattern ${JSON.stringify(args.pattern)} is not a valid regular expression: ${out.badPattern}`);
      const where = `${base.display}${args.glob ? ` (glob ${args.glob})` : ''}`;
      const budget = ctx.settings['tools.outputMaxChars'];
      const lines: string[] = [];
      let chars = 0;
      for (const m of out.matches) {
        const text = m.text.length > LINE_CLIP ? `${m.text.slice(0, LINE_CLIP)}…` : m.text;
        const row = `${home.prefix}${m.file}:${m.line}:${text}`;
        if (chars + row.length > budget && lines.length > 0) break;
        lines.push(row);
        chars += row.length + 1;
      }
      if (out.limitReached) {
        const max = args.max_results ?? DEFAULT_MAX;
        lines.push(`[… more than ${max} matches in all (the first ${lines.length} shown); the search stopped there; narrow the pattern, path or glob, or raise max_results]`);
      } else if (out.total > lines.length) {
        lines.push(`[… ${out.total - lines.length} more matches not shown (${out.total} in all); narrow the pattern, path or glob, or raise max_results]`);
      }
      if (out.warning) lines.push(`[warning: ${out.warning}]`);
      lines.push(...skippedNote(out));
      if (out.stopped?.reason === 'timeout') {
        const head = `${out.stopped.message}. A pattern with nested repetition such as (a+)+ can take exponential time on some lines: simplify it, or narrow path or glob.`;
        const found = out.total ? 'Matches found before it stopped (partial):' : `No matches for /${args.pattern}/ in ${where} before it stopped.`;
        return errorResult('timeout', [head, found, ...lines].join('\n'));
      }
      if (out.stopped) lines.push(`[stopped: ${out.stopped.message}; the results above are partial]`);
      if (out.total === 0) return okResult([`no matches for /${args.pattern}/ in ${where}`, ...lines].join('\n'));
      return okResult(lines.join('\n'));
    },
  });
}

export const grepTool = makeGrepTool();
