import type { Usage } from '../model/types';

/** Everything a session reports while it runs; the host and CLI render these. */
export type AgentEvent =
  | { type: 'turn.start'; sessionId: string; turn: number; prompt: string }
  | { type: 'round.start'; sessionId: string; round: number }
  | { type: 'text.delta'; sessionId: string; text: string }
  | { type: 'tool.call'; sessionId: string; callId: string; tool: string; args: string }
  | { type: 'tool.output'; sessionId: string; callId: string; chunk: string }
  /** `result`: the text as the model saw it (stub, refusal or output), cut to 64 KB for the UI. */
  | { type: 'tool.result'; sessionId: string; callId: string; tool: string; ok: boolean; summary: string; errorCode?: string; result?: string }
  | { type: 'tools.loaded'; sessionId: string; tools: string[] }
  | { type: 'usage'; sessionId: string; round: number; usage: Usage }
  | { type: 'retry'; sessionId: string; attempt: number; delayMs: number; reason: string }
  | { type: 'loop.suspected'; sessionId: string; tool: string; count: number }
  | { type: 'error'; sessionId: string; message: string; kind?: string }
  /**
   * The conversation was compacted: later requests carry `summary` (the fallback: an omission note)
   * in place of `rounds` earlier model rounds. Token counts are estimates of the request.
   */
  | {
      type: 'compaction';
      sessionId: string;
      trigger: 'auto' | 'manual' | 'overflow' | 'fallback';
      tokensBefore: number;
      tokensAfter: number;
      rounds: number;
      summary: string;
      model: string;
      focus?: string;
      failure?: string;
      usage?: Usage;
    }
  | { type: 'turn.end'; sessionId: string; reason: 'done' | 'cancelled' | 'max_rounds' | 'error'; rounds: number };

export type AgentEventListener = (e: AgentEvent) => void;
