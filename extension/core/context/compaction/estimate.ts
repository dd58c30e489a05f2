import type { WireMessage, WireTool } from '../../model/types';

/** What an image costs in a request, roughly (a 1024x1024 picture at high detail is about 765 tokens). */
const IMAGE_TOKENS = 1_000;
/** Characters per token until the provider has reported usage for the session: low, so estimates err high. */
const DEFAULT_CHARS_PER_TOKEN = 3;
const MIN_CHARS_PER_TOKEN = 1.5;
const MAX_CHARS_PER_TOKEN = 8;

/** Characters of a request as it goes out (JSON), with images counted apart (their data URLs are not text). */
export function requestSize(messages: readonly WireMessage[], tools: readonly WireTool[]): { chars: number; images: number } {
  let images = 0;
  let chars = tools.length ? JSON.stringify(tools).length : 0;
  for (const m of messages) {
    if (Array.isArray(m.content)) {
      for (const p of m.content) {
        if (p.type === 'image_url') images++;
        else chars += p.text.length + 24;
      }
      chars += 32;
    } else chars += JSON.stringify(m).length;
  }
  return { chars, images };
}

/**
 * Estimates a request's input tokens without a tokenizer: characters divided by the session's own
 * characters-per-token ratio, learned from the usage the provider reports for each request (so it
 * follows whatever tokenizer the model uses), 3 before the first report.
 */
export class TokenEstimator {
  /** Each session's learned ratio (a slice of the agent's per-session states). */
  constructor(private readonly ratios: Map<string, number> = new Map()) {}

  estimate(sessionId: string, size: { chars: number; images: number }): number {
    const ratio = this.ratios.get(sessionId) ?? DEFAULT_CHARS_PER_TOKEN;
    return Math.ceil(size.chars / ratio) + size.images * IMAGE_TOKENS;
  }

  /** The provider counted `promptTokens` for a request of this size. */
  observe(sessionId: string, size: { chars: number; images: number }, promptTokens: number): void {
    const textTokens = promptTokens - size.images * IMAGE_TOKENS;
    if (textTokens <= 0 || size.chars <= 0) return;
    const ratio = Math.min(MAX_CHARS_PER_TOKEN, Math.max(MIN_CHARS_PER_TOKEN, size.chars / textTokens));
    this.ratios.set(sessionId, ratio);
  }
}
