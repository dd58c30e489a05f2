/**
 * The shapes reasoning arrives in on OpenAI-compatible endpoints, read into one channel:
 * - `reasoning_content` deltas (DeepSeek; vLLM and SGLang with a reasoning parser; LM Studio);
 * - `reasoning` deltas (OpenRouter, Groq, Ollama, newer vLLM), with OpenRouter's `reasoning_details`;
 * - content as a list of parts (Mistral's Magistral: `{type:'thinking', thinking:[{type:'text', text}]}`
 *   beside `{type:'text', text}`);
 * - `<think>...</think>` at the start of the content (DeepSeek-R1 on Together, local servers without
 *   a reasoning parser), split from the answer even when a tag is cut across chunks.
 */
import type { Reasoning } from './types';

/** What one delta's content holds once its reasoning is taken out. */
export interface SplitDelta {
  text: string;
  reasoning: string;
}

/** A content value that is a list of parts: its answer text and its thinking text. */
export function contentParts(content: unknown): SplitDelta | null {
  if (!Array.isArray(content)) return null;
  const out: SplitDelta = { text: '', reasoning: '' };
  for (const part of content as Array<Record<string, unknown>>) {
    if (!part || typeof part !== 'object') continue;
    if (part.type === 'text' && typeof part.text === 'string') out.text += part.text;
    else if (part.type === 'thinking' || part.type === 'reasoning') out.reasoning += thinkingText(part.thinking ?? part.text ?? part.reasoning);
  }
  return out;
}

/** Mistral's `thinking` is a list of text chunks; others give a string. */
function thinkingText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map((x) => (x && typeof x === 'object' && typeof (x as { text?: unknown }).text === 'string' ? (x as { text: string }).text : typeof x === 'string' ? x : '')).join('');
  return '';
}

const OPEN = '<think>';
const CLOSE = '</think>';

/**
 * Splits streamed content into answer and `<think>` reasoning. Only a block that opens the content
 * (after whitespace) is reasoning; a `<think>` later in an answer is the answer's own text. A
 * partial tag at the end of a delta is held back until the next delta says what it is.
 */
export class ThinkTagSplitter {
  private state: 'start' | 'thinking' | 'answer' = 'start';
  private pending = '';
  /** Whether any `<think>` block was seen. */
  seen = false;

  push(delta: string): SplitDelta {
    let s = this.pending + delta;
    this.pending = '';
    const out: SplitDelta = { text: '', reasoning: '' };
    while (s) {
      if (this.state === 'answer') {
        out.text += s;
        break;
      }
      if (this.state === 'start') {
        const trimmed = s.replace(/^\s+/, '');
        if (!trimmed) {
          this.pending = s;
          break;
        }
        if (trimmed.startsWith(OPEN)) {
          this.state = 'thinking';
          this.seen = true;
          s = trimmed.slice(OPEN.length);
          continue;
        }
        if (OPEN.startsWith(trimmed)) {
          this.pending = s;
          break;
        }
        this.state = 'answer';
        continue;
      }
      // thinking
      const end = s.indexOf(CLOSE);
      if (end >= 0) {
        out.reasoning += s.slice(0, end);
        s = s.slice(end + CLOSE.length);
        this.state = 'answer';
        this.leadingTrim = true;
        continue;
      }
      const keep = partialSuffix(s, CLOSE);
      out.reasoning += s.slice(0, s.length - keep);
      this.pending = s.slice(s.length - keep);
      break;
    }
    if (this.leadingTrim && out.text) {
      out.text = out.text.replace(/^\s+/, '');
      if (out.text) this.leadingTrim = false;
    }
    return out;
  }

  /** The stream ended: whatever was held back. */
  flush(): SplitDelta {
    const rest = this.pending;
    this.pending = '';
    if (this.state === 'thinking') return { text: '', reasoning: rest };
    return { text: this.state === 'start' && !rest.trim() ? '' : rest, reasoning: '' };
  }

  /** After a closing tag, the answer's leading whitespace (the blank line after `</think>`) is dropped. */
  private leadingTrim = false;
}

/** Length of the longest suffix of s that is a proper prefix of tag. */
function partialSuffix(s: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, s.length); n > 0; n--) if (tag.startsWith(s.slice(s.length - n))) return n;
  return 0;
}

/** A complete content string split into answer and leading `<think>` reasoning. */
export function splitThinkTags(content: string): SplitDelta {
  const t = new ThinkTagSplitter();
  const a = t.push(content);
  const b = t.flush();
  return { text: a.text + b.text, reasoning: a.reasoning + b.reasoning };
}

/**
 * OpenRouter's reasoning_details arrive in pieces across chunks: pieces with the same index (and
 * type) are one detail, their text concatenated, other fields (signature, format, id) kept from
 * whichever piece carried them.
 */
export function mergeReasoningDetails(into: Array<Record<string, unknown>>, pieces: unknown): void {
  if (!Array.isArray(pieces)) return;
  for (const raw of pieces) {
    if (!raw || typeof raw !== 'object') continue;
    const piece = raw as Record<string, unknown>;
    const index = typeof piece.index === 'number' ? piece.index : into.length;
    const same = into.find((d) => (typeof d.index === 'number' ? d.index : -1) === index && d.type === piece.type);
    if (!same) {
      into.push({ ...piece });
      continue;
    }
    for (const [k, v] of Object.entries(piece)) {
      if ((k === 'text' || k === 'summary' || k === 'data') && typeof v === 'string' && typeof same[k] === 'string') same[k] = (same[k] as string) + v;
      else if (v !== null && v !== undefined) same[k] = v;
    }
  }
}

/** The reasoning a response carried, or undefined when it carried none. */
export function reasoningOf(text: string, source: Reasoning['source'] | null, details: Array<Record<string, unknown>>): Reasoning | undefined {
  if (!source && !details.length) return undefined;
  const fromDetails = text
    ? ''
    : details
        .map((d) => (typeof d.text === 'string' ? d.text : typeof d.summary === 'string' ? d.summary : ''))
        .join('');
  const r: Reasoning = { text: text || fromDetails, source: source ?? 'reasoning' };
  if (details.length) r.details = details;
  return r;
}
