/**
 * The provider boundary. Requests are in the OpenAI Chat Completions wire shape, which
 * every OpenAI-compatible endpoint speaks; other providers (vscode.lm) translate from it.
 */

export type WireContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export type WireMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | WireContentPart[] }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
    }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface WireTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface ModelRequest {
  messages: WireMessage[];
  /** The tools block. The same array object is passed on unchanged rounds so its bytes match. */
  tools: WireTool[];
  /** Stable per session (a child uses its parent's): sent as prompt_cache_key where the endpoint takes it. */
  cacheKey?: string;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  /** Counted by the client (the editor's language models report no usage), not reported by the provider. */
  estimated?: boolean;
}

export interface ModelToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface ModelResponse {
  text: string;
  toolCalls: ModelToolCall[];
  usage: Usage | null;
  finishReason: string | null;
}

export interface StreamHandlers {
  onText?(delta: string): void;
  /** Called when a retry is scheduled (attempt counts from 1). */
  onRetry?(info: { attempt: number; delayMs: number; reason: string }): void;
}

export interface ModelClient {
  readonly endpoint: string;
  readonly model: string;
  complete(req: ModelRequest, handlers: StreamHandlers, signal: AbortSignal): Promise<ModelResponse>;
}

export type ModelErrorKind = 'auth' | 'not_found' | 'context_length' | 'rate_limited' | 'server' | 'network' | 'timeout' | 'stream_cut' | 'cancelled' | 'bad_request';

/** A provider failure with a message fit for the user: names endpoint and model, never the key. */
export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}
