/**
 * `@problems`, `@terminal` and `@changes` in a user prompt: what the editor knows, attached beside
 * the `@path` mentions in the same way (a block the model reads after the typed text, or a note
 * that says why not). A keyword is a whole mention: `@changes/notes.md` is a path, and a file
 * called `changes` is `@./changes`. `@changes` works wherever git does; `@problems` and
 * `@terminal` need the editor (the host passes MentionSources; the CLI has none and says so).
 */
import { changesPart } from './changes-mention';
import { problemsPart } from './problems-mention';
import { terminalPart } from './terminal-mention';
import { MENTION_KEYWORDS, notAvailable, type KeywordResult, type MentionKeyword } from './keyword-parts';
import type { KeywordContext } from './keyword-context';

export type { ProblemEntry } from './problems-mention';
export type { TerminalCapture } from './terminal-mention';

export { MENTION_KEYWORDS, type MentionKeyword } from './keyword-parts';

export function isMentionKeyword(word: string): word is MentionKeyword {
  return (MENTION_KEYWORDS as readonly string[]).includes(word);
}

export type { KeywordContext, MentionSources } from './keyword-context';

export async function resolveKeyword(word: MentionKeyword, ctx: KeywordContext): Promise<KeywordResult> {
  if (word === 'changes') return changesPart(ctx);
  if (word === 'problems') {
    if (!ctx.sources?.problems) return notAvailable(word, 'only VS Code knows the workspace\'s problems (the CLI has no language services); ask the agent to run the project\'s checker instead');
    return problemsPart(await ctx.sources.problems());
  }
  if (!ctx.sources?.terminal) return notAvailable(word, "only VS Code's terminals can be read; paste the output instead");
  return terminalPart(await ctx.sources.terminal());
}
