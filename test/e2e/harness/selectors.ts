/** Hooks the chat webview exposes for tests (kept in one place so a rename touches one file). */
export const CHAT = {
  /** The message box (a textarea). */
  composer: '[data-testid="composer"]',
  /** The conversation (the message list). */
  transcript: '[data-testid="transcript"]',
  /** One entry of the conversation: a user or assistant message, a tool card, a notice. */
  transcriptItem: '[data-testid="transcript"] [data-testid="transcript-item"]',
} as const;
