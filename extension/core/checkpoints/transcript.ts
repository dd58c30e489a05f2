import { isTurnPrompt, textOf, type Message } from '../conversation/messages';

/**
 * The first line of each user message, by turn (index 0 is turn 1): the messages a turn
 * starts with, counted as Session.turn counts them (the loop's own attachments left out).
 */
export function userMessageLines(messages: readonly Message[]): string[] {
  return messages.flatMap((m) => (isTurnPrompt(m) ? [firstLine(textOf(m.content))] : []));
}

function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  const t = line.trim();
  return t.length > 100 ? `${t.slice(0, 99)}…` : t;
}
