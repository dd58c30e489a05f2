import * as path from 'node:path';
import type { SlashCommand } from './commands';

/**
 * Arguments split the way a shell would: on spaces, with '...' and "..." grouping (the quotes
 * dropped) and a backslash escaping the next character outside single quotes.
 */
export function splitArguments(args: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: '"' | "'" | undefined;
  let started = false;
  for (let i = 0; i < args.length; i++) {
    const ch = args[i];
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && i + 1 < args.length) cur += args[++i];
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      started = true;
    } else if (ch === '\\' && i + 1 < args.length) {
      cur += args[++i];
      started = true;
    } else if (/\s/.test(ch)) {
      if (started) out.push(cur);
      cur = '';
      started = false;
    } else {
      cur += ch;
      started = true;
    }
  }
  if (started) out.push(cur);
  return out;
}

const INPUT = /\$\{input:([A-Za-z_][\w-]*)(?::([^}]*))?\}/g;

/**
 * A command's text with the arguments filled in, one pass (a value is never expanded again):
 * `$ARGUMENTS` all of them as typed, `$1`…`$9` one each and `$ARGUMENTS[0]`… from 0 (Claude Code's
 * placeholders; a missing one is empty); VS Code's `${input:name}` and `${input:name:hint}` from a
 * `name=value` argument (else `[name: not given]`, so the model asks), `${workspaceFolder}` and
 * `${workspaceFolderBasename}`. Other text, `$HOME` and `${file}` included, stays as written.
 */
export function expandCommand(cmd: Pick<SlashCommand, 'body'>, args: string, workspaceRoot: string): string {
  const words = splitArguments(args);
  const named = new Map<string, string>();
  for (const w of words) {
    const kv = /^([A-Za-z_][\w-]*)=([\s\S]*)$/.exec(w);
    if (kv && !named.has(kv[1])) named.set(kv[1], kv[2]);
  }
  const pattern = new RegExp(`\\$ARGUMENTS\\[(\\d+)\\]|\\$ARGUMENTS\\b|\\$([1-9])(?!\\d)|${INPUT.source}|\\$\\{(workspaceFolder|workspaceFolderBasename)\\}`, 'g');
  return cmd.body.replace(pattern, (whole, index?: string, positional?: string, input?: string, hint?: string, folder?: string) => {
    if (index !== undefined) return words[Number(index)] ?? '';
    if (positional !== undefined) return words[Number(positional) - 1] ?? '';
    if (input !== undefined) return named.get(input) ?? `[${input}${hint ? ` (${hint.trim()})` : ''}: not given]`;
    if (folder === 'workspaceFolder') return workspaceRoot;
    if (folder === 'workspaceFolderBasename') return path.basename(workspaceRoot);
    return whole === '$ARGUMENTS' ? args.trim() : whole;
  });
}

/** The text the model gets after the user's `/name args`: which file it came from, then its filled-in text. */
export function commandPart(cmd: SlashCommand, args: string, workspaceRoot: string): string {
  return `[/${cmd.name}: ${cmd.origin}]\n${expandCommand(cmd, args, workspaceRoot).trim()}`;
}
