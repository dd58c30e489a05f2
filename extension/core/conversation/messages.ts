/** The stored transcript's message shapes. state.db keeps these verbatim; only the outgoing request is pruned. */
import type { Reasoning } from '../model/types';

export interface ImageRef {
  type: 'image';
  /** Attachment-store id of the image; the bytes live beside state.db, never inline here. */
  imageId: string;
  name: string;
  mime: string;
  width: number;
  height: number;
}

export type ContentPart = { type: 'text'; text: string } | ImageRef;

export interface ToolCall {
  id: string;
  name: string;
  /** The arguments exactly as the model sent them (a JSON string, possibly malformed). */
  arguments: string;
  /**
   * The tool card's heading (tools/card-summary.ts callTitle), computed when the call was made and
   * kept with it, so a replay shows what the live card showed even when the tool has changed or
   * gone since (an MCP server removed). Never sent to the model; absent in calls stored before it was.
   */
  title?: string;
  /** Provider fields of the call sent back with it verbatim (Gemini's extra_content with its thought signature). */
  extra?: Record<string, unknown>;
}

/**
 * A compaction as the transcript keeps it: a message appended where it happened (the stored
 * messages before it are never changed). From then on requests carry this message (its content
 * is the summary, or the fallback's omission note), the turn's own prompt when it lies before the
 * cut, and the messages from `cut` on.
 */
export interface CompactionRecord {
  /** Index in the transcript of the first message requests carry whole after this compaction. */
  cut: number;
  /** The user prompt of the turn that was running, when it lies before `cut` (requests keep it verbatim). */
  pinned?: number;
  /** auto: the request neared the window; manual: /compact; overflow: the provider said context_length; fallback: the summary failed and the oldest rounds were dropped. */
  trigger: 'auto' | 'manual' | 'overflow' | 'fallback';
  /** Estimated tokens of the request before and after. */
  tokensBefore: number;
  tokensAfter: number;
  /** The model that wrote the summary (the session's model). */
  model: string;
  /** Model rounds the summary stands for (all rounds before the cut). */
  rounds: number;
  /** What the user asked the summary to keep (/compact <focus>). */
  focus?: string;
}

/**
 * A rewind as the transcript keeps it: requests (and the chat) go back to how they were before
 * the message at `to` (the user message of turn `turn`); the messages after it stay stored.
 */
export interface RewindRecord {
  /** Transcript index of the user message the conversation goes back to (it and what follows are left out). */
  to: number;
  /** That message's turn number (the checkpoint it matches). */
  turn: number;
}

export type Message =
  /**
   * `attachedBy` marks a user message the loop added: 'tools' carries images from tools
   * (view_image, screenshots); 'compaction' is a compaction (see CompactionRecord); 'rewind' a
   * rewind (RewindRecord), never sent itself. `duringTurn` marks a message the user sent while a
   * turn ran, delivered at a round boundary (after that round's tool results): the user's own
   * words, but not a turn of its own (no checkpoint, no turn number).
   */
  | { role: 'user'; content: string | ContentPart[]; attachedBy?: string; compaction?: CompactionRecord; rewind?: RewindRecord; duringTurn?: boolean }
  /** `reasoning`: what the model thought before answering (shown collapsed, sent back only where its provider requires). */
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[]; reasoning?: Reasoning }
  /**
   * `loadedTools`: the deferred tools this call loaded (tool_search, or a deferred tool called
   * directly, which loads itself), in load order; absent when it loaded none, and in results
   * stored before it was recorded. Never sent to the model (the content says it in words).
   */
  | { role: 'tool'; toolCallId: string; toolName: string; ok: boolean; content: string; errorCode?: string; loadedTools?: string[] };

/** The message a turn starts with: the user's own (not one the loop added), not one delivered during a turn. */
export function isTurnPrompt(m: Message): boolean {
  return m.role === 'user' && !m.attachedBy && !m.duringTurn;
}

/** Transcript index of the user's message of `turn` (turns count the user's own messages from 1); -1 when there is none. */
export function userMessageIndex(messages: readonly Message[], turn: number): number {
  let n = 0;
  for (let i = 0; i < messages.length; i++) {
    if (isTurnPrompt(messages[i]) && ++n === turn) return i;
  }
  return -1;
}

export function textOf(content: string | ContentPart[]): string {
  if (typeof content === 'string') return content;
  return content.map((p) => (p.type === 'text' ? p.text : `[image: ${p.name}]`)).join('\n');
}
