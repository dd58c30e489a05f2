/**
 * `@changes`: the working tree's changes as one unified diff against HEAD (staged and unstaged
 * alike; against nothing in a repository without commits), for the workspace folder only, with
 * the untracked files named (not shown). Whole files are kept while they fit MAX_CHANGES_CHARS;
 * the files that did not fit are named with their line counts. git runs as the git tools run it
 * (run-git.ts: the repository's program-running config off), and never in an untrusted workspace.
 */
import { runGit, type GitOutput } from '../tools/git/run-git';
import { block, notAvailable, nothingThere, type KeywordResult } from './keyword-parts';
import type { KeywordContext } from './keyword-context';

export const MAX_CHANGES_CHARS = 40_000;
export const MAX_UNTRACKED_NAMES = 50;

/** git's empty tree: what a repository without commits is compared with. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

interface FileDiff {
  path: string;
  text: string;
  added: number;
  removed: number;
}

/** A unified diff split into its files, with their line counts. */
export function splitDiff(diff: string): FileDiff[] {
  const starts = [...diff.matchAll(/^diff --git /gm)].map((m) => m.index!);
  return starts.map((start, i) => {
    const text = diff.slice(start, starts[i + 1] ?? diff.length).replace(/\n$/, '');
    const lines = text.split('\n');
    const plus = lines.find((l) => l.startsWith('+++ '));
    const header = lines[0]!.match(/^diff --git a\/(.*) b\/(.*)$/);
    const path = plus && plus !== '+++ /dev/null' ? plus.slice(4).replace(/^b\//, '') : (header?.[2] ?? header?.[1] ?? lines[0]!);
    let added = 0;
    let removed = 0;
    let inHunk = false;
    for (const l of lines) {
      if (l.startsWith('@@')) inHunk = true;
      else if (inHunk && l.startsWith('+')) added++;
      else if (inHunk && l.startsWith('-')) removed++;
    }
    return { path, text, added, removed };
  });
}

/** The files that fit within `maxChars` (the first is cut to fit when it alone does not), and the ones left out. */
export function capDiff(files: FileDiff[], maxChars: number): { text: string; left: FileDiff[] } {
  const kept: string[] = [];
  let chars = 0;
  let i = 0;
  for (; i < files.length; i++) {
    const f = files[i]!;
    if (chars + f.text.length + 1 > maxChars) {
      if (!kept.length) {
        const cut = f.text.slice(0, maxChars).replace(/\n[^\n]*$/, '');
        kept.push(`${cut}\n[${f.path}: diff cut at ${maxChars} characters; ${f.text.length - cut.length} more]`);
        i++;
      }
      break;
    }
    kept.push(f.text);
    chars += f.text.length + 1;
  }
  return { text: kept.join('\n'), left: files.slice(i) };
}

/** Runs git for `@changes`: its output, or the note that says why there is none. */
async function git(args: string[], ctx: KeywordContext, okCodes = [0]): Promise<GitOutput | KeywordResult> {
  let out: GitOutput;
  try {
    out = await runGit(args, { workspaceRoot: ctx.workspaceRoot, signal: ctx.signal });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return notAvailable('changes', 'the git program was not found on PATH');
    throw e;
  }
  if (okCodes.includes(out.code)) return out;
  if (/not a git repository/i.test(out.stderr)) return notAvailable('changes', 'the workspace is not inside a git repository');
  return notAvailable('changes', `git ${args[0]} exited with code ${out.code}: ${(out.stderr || out.stdout).trim().slice(0, 500)}`);
}

const failed = (r: GitOutput | KeywordResult): r is KeywordResult => 'parts' in r;

export async function changesPart(ctx: KeywordContext): Promise<KeywordResult> {
  if (!ctx.workspaceTrusted) return notAvailable('changes', "git does not run in Restricted Mode (a repository's config can make it run programs); trust the folder first");
  // A repository without commits answers with exit 1: its changes are compared with nothing.
  const head = await git(['rev-parse', '--verify', '--quiet', 'HEAD'], ctx, [0, 1]);
  if (failed(head)) return head;
  const base = head.code === 0 ? 'HEAD' : EMPTY_TREE;
  const diff = await git(['diff', base, '--relative', '--find-renames', '--no-color'], ctx);
  if (failed(diff)) return diff;
  const untracked = await git(['ls-files', '--others', '--exclude-standard'], ctx);
  if (failed(untracked)) return untracked;
  const files = splitDiff(diff.stdout);
  const newFiles = untracked.stdout.split('\n').filter(Boolean);
  if (!files.length && !newFiles.length) return nothingThere('changes', `the working tree has no changes${base === 'HEAD' ? ' against HEAD' : ' (the repository has no commits yet, and nothing is staged)'}`);
  const { text, left } = capDiff(files, MAX_CHANGES_CHARS);
  const added = files.reduce((n, f) => n + f.added, 0);
  const removed = files.reduce((n, f) => n + f.removed, 0);
  const notes: string[] = [];
  if (left.length) {
    const names = left.map((f) => `${f.path} (+${f.added} -${f.removed})`).join(', ');
    notes.push(`[diff cut at ${MAX_CHANGES_CHARS} characters: ${left.length} more changed file${left.length === 1 ? '' : 's'} not shown: ${names}; ask for git_diff with a path to see one]`);
  }
  if (newFiles.length) {
    const shown = newFiles.slice(0, MAX_UNTRACKED_NAMES).join(', ');
    const more = newFiles.length > MAX_UNTRACKED_NAMES ? ` and ${newFiles.length - MAX_UNTRACKED_NAMES} more` : '';
    notes.push(`[untracked, not shown: ${shown}${more}; mention one with @path to attach it]`);
  }
  const open = `<changes base="${base === 'HEAD' ? 'HEAD' : 'empty (no commits yet)'}" files="${files.length}" added="${added}" removed="${removed}" untracked="${newFiles.length}">`;
  return block([open, ...(text ? [text] : []), ...notes, '</changes>'].join('\n'));
}
