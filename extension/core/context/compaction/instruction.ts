/**
 * The words of a compaction: the request appended to the conversation for the summary, and the
 * heads of the message requests carry in place of what was summarized or dropped.
 */

/** The user message appended to the session's own request (same system prompt and tools, so the cached prefix is reused). */
export function summaryInstruction(focus?: string): string {
  const lines = [
    'Context compaction: the conversation above is about to be replaced by a summary you write now, to free room in the context window. Do not call any tool; answer with the summary only.',
    'Write it for yourself, to carry on the work without the earlier messages. Use these headings:',
    '## Task: the goal as you understand it (the user\'s own messages are kept word for word beside this summary: do not restate, reword or add to their instructions).',
    '## Decisions: what was decided or learned, and why.',
    '## Files: each file read, created or changed, its path and its state now.',
    '## Open problems: errors not yet solved, tests failing, questions waiting.',
    '## Next: what you were about to do next.',
    'Be concrete: paths, names, commands, error messages, numbers. Leave out what no longer matters.',
  ];
  if (focus?.trim()) lines.push(`The user asked that the summary keep in particular: ${focus.trim()}`);
  return lines.join('\n');
}

/** The head of the message that carries a summary in later requests. */
export function summaryMessage(summary: string, rounds: number): string {
  return `[Summary of the conversation so far, written by the model, not by the user (the user's own messages stand above it, word for word): ${rounds === 1 ? '1 earlier model round was' : `${rounds} earlier model rounds were`} compacted; the session's full history is stored.]\n\n${summary.trim()}`;
}

/** The fallback when no summary could be written: the oldest rounds are dropped with this note. */
export function omittedNote(rounds: number): string {
  return `[${rounds} earlier rounds omitted; the session's full history is stored]`;
}
