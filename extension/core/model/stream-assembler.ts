/**
 * Folds Chat Completions stream chunks into one ModelResponse: text deltas concatenated,
 * tool-call deltas assembled per index (parallel calls), reasoning in whatever shape it came
 * (reasoning-parts.ts) kept apart from the answer, usage and finish reason kept.
 */
import { randomUUID } from 'node:crypto';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { contentParts, mergeReasoningDetails, reasoningOf, ThinkTagSplitter, type SplitDelta } from './reasoning-parts';
import type { ModelResponse, ModelToolCall, Reasoning, Usage } from './types';

interface PartialCall {
  id: string;
  name: string;
  arguments: string;
  extra?: Record<string, unknown>;
}

/** Usage fields some OpenAI-compatible providers add beside the standard ones. */
type LooseUsage = NonNullable<ChatCompletionChunk['usage']> & { prompt_cache_hit_tokens?: number };

export function readUsage(u: LooseUsage): Usage {
  const out: Usage = {
    promptTokens: u.prompt_tokens ?? 0,
    completionTokens: u.completion_tokens ?? 0,
    cachedTokens: u.prompt_tokens_details?.cached_tokens ?? u.prompt_cache_hit_tokens ?? 0,
  };
  const reasoning = u.completion_tokens_details?.reasoning_tokens;
  if (typeof reasoning === 'number' && reasoning > 0) out.reasoningTokens = reasoning;
  return out;
}

/** The standard fields of a tool-call delta; anything else a provider adds (Gemini's extra_content) is echoed back. */
const CALL_FIELDS = new Set(['index', 'id', 'type', 'function']);

/** A delta's fields beyond the SDK's types: the reasoning shapes providers add. */
type LooseDelta = ChatCompletionChunk.Choice.Delta & { reasoning_content?: unknown; reasoning?: unknown; reasoning_details?: unknown; content?: unknown };

/** What one chunk carried for the caller to stream. */
export interface ChunkDeltas {
  text: string;
  reasoning: string;
}

export class StreamAssembler {
  private text = '';
  private reasoning = '';
  private reasoningSource: Reasoning['source'] | null = null;
  private readonly details: Array<Record<string, unknown>> = [];
  private readonly think = new ThinkTagSplitter();
  private readonly calls = new Map<number, PartialCall>();
  private lastIndex = -1;
  private usage: Usage | null = null;
  private finishReason: string | null = null;

  /** Adds one chunk; returns the answer text and the reasoning it carried ('' when none). */
  add(chunk: ChatCompletionChunk): ChunkDeltas {
    if (chunk.usage) this.usage = readUsage(chunk.usage as LooseUsage);
    const choice = chunk.choices?.[0];
    if (!choice) return { text: '', reasoning: '' };
    this.choices++;
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    const delta = (choice.delta ?? {}) as LooseDelta;
    for (const d of delta.tool_calls ?? []) this.addToolDelta(d);
    const out = this.contentOf(delta);
    // One delta may carry reasoning_content and reasoning both (servers that send the old and the new field): the first counts.
    const fieldReasoning = typeof delta.reasoning_content === 'string' ? delta.reasoning_content : typeof delta.reasoning === 'string' ? delta.reasoning : '';
    if (fieldReasoning) this.noteSource(typeof delta.reasoning_content === 'string' ? 'reasoning_content' : 'reasoning');
    if (delta.reasoning_details) {
      mergeReasoningDetails(this.details, delta.reasoning_details);
      this.noteSource('reasoning');
    }
    const reasoning = fieldReasoning + out.reasoning;
    this.text += out.text;
    this.reasoning += reasoning;
    return { text: out.text, reasoning };
  }

  /** The answer and reasoning in a delta's content: a string (maybe opening with `<think>`) or a list of parts. */
  private contentOf(delta: LooseDelta): SplitDelta {
    const c = delta.content;
    if (typeof c === 'string') {
      if (!c) return { text: '', reasoning: '' };
      const out = this.think.push(c);
      if (out.reasoning) this.noteSource('think_tag');
      return out;
    }
    const parts = contentParts(c);
    if (parts?.reasoning) this.noteSource('content_parts');
    return parts ?? { text: '', reasoning: '' };
  }

  private noteSource(source: Reasoning['source']): void {
    this.reasoningSource ??= source;
  }

  /** The stream ended: text a partial `<think>` tag held back. */
  finish(): ChunkDeltas {
    const rest = this.think.flush();
    this.text += rest.text;
    this.reasoning += rest.reasoning;
    if (rest.reasoning) this.noteSource('think_tag');
    return rest;
  }

  private addToolDelta(d: NonNullable<ChatCompletionChunk.Choice.Delta['tool_calls']>[number]): void {
    let index = typeof d.index === 'number' ? d.index : this.lastIndex;
    if (typeof d.index !== 'number') {
      // Some providers omit `index`: a delta with a new id, or a new name, starts a call;
      // an arguments-only delta continues the last one.
      const last = this.calls.get(this.lastIndex);
      const startsNew = !last || (d.id ? d.id !== last.id : Boolean(d.function?.name && last.name));
      if (startsNew) index = this.calls.size ? Math.max(...this.calls.keys()) + 1 : 0;
    }
    this.lastIndex = index;
    const cur = this.calls.get(index) ?? { id: '', name: '', arguments: '' };
    if (d.id && !cur.id) cur.id = d.id;
    const name = d.function?.name;
    // A provider may repeat the full name in every delta; others send it once.
    if (name && name !== cur.name) cur.name += name;
    if (d.function?.arguments) cur.arguments += d.function.arguments;
    for (const [k, v] of Object.entries(d)) if (!CALL_FIELDS.has(k) && v !== undefined && v !== null) (cur.extra ??= {})[k] = v;
    this.calls.set(index, cur);
  }

  /** Chunks that carried a choice (a delta, a finish reason). */
  choices = 0;

  /** Nothing of an answer arrived: no text, no tool call, no finish reason (only usage, say). */
  get empty(): boolean {
    return !this.text && !this.reasoning && !this.calls.size && this.finishReason === null;
  }

  /** True once the stream said how it ended (a finish reason, or the final usage chunk). */
  get complete(): boolean {
    return this.finishReason !== null || this.usage !== null;
  }

  result(): ModelResponse {
    const toolCalls: ModelToolCall[] = [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, c]) => ({
        id: c.id || `call_${randomUUID().slice(0, 8)}_${index}`,
        name: c.name,
        arguments: c.arguments.trim() === '' ? '{}' : c.arguments,
        ...(c.extra ? { extra: c.extra } : {}),
      }));
    const reasoning = reasoningOf(this.reasoning, this.reasoningSource, this.details);
    return { text: this.text, toolCalls, usage: this.usage, finishReason: this.finishReason, ...(reasoning ? { reasoning } : {}) };
  }
}
