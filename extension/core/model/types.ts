/**
 * The provider boundary. Requests are in the OpenAI Chat Completions wire shape, which
 * every OpenAI-compatible endpoint speaks; other providers (vscode.lm) translate from it.
 */

/** How hard a reasoning model thinks before answering (model.reasoningEffort; the composer's effort control). */
export type Effort = 'low' | 'medium' | 'high';

/** A model and effort the user picked for one session in the chat, over the settings' own (model-choice.ts). */
export interface ModelChoice {
  model?: string;
  effort?: Effort;
}

export type WireContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

/**
 * Reasoning ("thinking") a model sent beside its answer, in one channel whatever the provider's
 * shape: shown collapsed, stored with the assistant message, never part of the answer text.
 * `source` says where it came from, which decides whether and how a client sends it back.
 */
export interface Reasoning {
  text: string;
  /**
   * reasoning_content: DeepSeek (and servers copying it: vLLM, SGLang, LM Studio...); reasoning:
   * OpenRouter, Groq, Ollama; think_tag: `<think>` blocks in the content (R1 on Together, local
   * servers); content_parts: Mistral's thinking parts; anthropic: Messages API thinking blocks.
   */
  source: 'reasoning_content' | 'reasoning' | 'think_tag' | 'content_parts' | 'anthropic';
  /** OpenRouter's reasoning_details, verbatim, to send back with tool calls. */
  details?: unknown[];
  /** Anthropic thinking blocks with their signatures (redacted ones as data), verbatim, in order. */
  blocks?: Array<{ type: 'thinking'; thinking: string; signature: string } | { type: 'redacted_thinking'; data: string }>;
}

/**
 * The reasoning an assistant wire message carries, for the client to send back where its provider
 * requires it and nowhere else. `toolTurn`: the message belongs to a turn (the messages between two
 * of the user's own messages) in which the model called tools; DeepSeek wants reasoning_content
 * back for exactly those, in every later request.
 */
export type WireReasoning = Reasoning & { toolTurn: boolean };

export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
  /** Provider fields of the call to echo back verbatim (Gemini's extra_content with its thought_signature). */
  extra?: Record<string, unknown>;
}

export type WireMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | WireContentPart[] }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: WireToolCall[];
      /** Never sent as it is: each client maps it to its provider's field (or drops it). */
      reasoning?: WireReasoning;
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
  /** Most tokens this answer may take, below model.maxOutputTokens (the compaction summary's cap). */
  maxOutputTokens?: number;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  /** Of promptTokens, tokens written into the provider's cache this request (Anthropic's cache_creation_input_tokens); absent when the provider does not say. */
  cacheWriteTokens?: number;
  /** Of completionTokens, tokens the model spent reasoning (when the provider says). */
  reasoningTokens?: number;
  /** Counted by the client (the editor's language models report no usage), not reported by the provider. */
  estimated?: boolean;
}

export interface ModelToolCall {
  id: string;
  name: string;
  arguments: string;
  /** Provider fields of the call to echo back verbatim when it is sent again (Gemini's extra_content). */
  extra?: Record<string, unknown>;
}

export interface ModelResponse {
  text: string;
  toolCalls: ModelToolCall[];
  usage: Usage | null;
  /**
   * stop, tool_calls, length (cut at the output limit), content_filter (stopped by the provider's
   * filter), or a provider's own word; normalised from Anthropic's stop_reason by its client.
   */
  finishReason: string | null;
  /** Reasoning the model sent beside the answer (kept out of `text`). */
  reasoning?: Reasoning;
}

export interface StreamHandlers {
  onText?(delta: string): void;
  /** Reasoning as it streams (never part of the answer). */
  onReasoning?(delta: string): void;
  /** Called when a retry is scheduled (attempt counts from 1). */
  onRetry?(info: { attempt: number; delayMs: number; reason: string }): void;
}

export interface ModelClient {
  readonly endpoint: string;
  readonly model: string;
  complete(req: ModelRequest, handlers: StreamHandlers, signal: AbortSignal): Promise<ModelResponse>;
  /** Optional request parts the endpoint refused, which requests now go without (the meter's tooltip says so). */
  dropped?(): string[];
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
