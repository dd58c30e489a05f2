/**
 * `@problems`, `@terminal` and `@changes` in a user prompt: what the editor knows, attached beside
 * the `@path` mentions in the same way (a block the model reads after the typed text, or a note
 * that says why not). A keyword is a whole mention: `@changes/notes.md` is a path, and a file
 * called `changes` is `@./changes`. `@changes` works wherever git does; `@problems` and
 * `@terminal` need the editor (the host passes MentionSources; the CLI has none and says so).
 */
import { changesPart } from './changes-mention';
import { problemsPart, type ProblemEntry } from './problems-mention';
import { terminalPart, type TerminalCapture } from './terminal-mention';
import { MENTION_KEYWORDS, notAvailable, type KeywordResult, type MentionKeyword } from './keyword-parts';

export type { ProblemEntry } from './problems-mention';
export type { TerminalCapture } from './terminal-mention';

export { MENTION_KEYWORDS, type MentionKeyword } from './keyword-parts';

export function isMentionKeyword(word: string): word is MentionKeyword {
  return (MENTION_KEYWORDS as readonly string[]).includes(word);
}

/** What only the editor can tell: its diagnostics and its terminals. Absent (the CLI): those keywords say they are not available. */
export interface MentionSources {
  /** Every diagnostic VS Code has now (any severity; the formatter keeps errors and warnings). */
  problems?(): ProblemEntry[] | Promise<ProblemEntry[]>;
  /** The active terminal and its last command's output. */
  terminal?(): TerminalCapture | Promise<TerminalCapture>;
}

export interface KeywordContext {
  workspaceRoot: string;
  sources?: MentionSources;
  /** git reads a repository's config, which can run programs: not in an untrusted workspace. */
  workspaceTrusted: boolean;
  signal?: AbortSignal;
}

export async function resolveKeyword(word: MentionKeyword, ctx: KeywordContext): Promise<KeywordResult> {
  if (word === 'changes') return changesPart(ctx);
  if (word === 'problems') {
    if (!ctx.sources?.problems) return notAvailable(word, 'only VS Code knows the workspace\'s problems (the CLI has no language services); ask the agent to run the project\'s checker instead');
    return problemsPart(await ctx.sources.problems());
  }
  if (!ctx.sources?.terminal) return notAvailable(word, "only VS Code's terminals can be read; paste the output instead");
  return terminalPart(await ctx.sources.terminal());
}
