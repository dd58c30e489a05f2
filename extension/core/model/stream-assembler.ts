/**
 * Folds Chat Completions stream chunks into one ModelResponse: text deltas concatenated,
 * tool-call deltas assembled per index (parallel calls), usage and finish reason kept.
 */
import { randomUUID } from 'node:crypto';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ModelResponse, ModelToolCall, Usage } from './types';

interface PartialCall {
  id: string;
  name: string;
  arguments: string;
}

/** Usage fields some OpenAI-compatible providers add beside the standard ones. */
type LooseUsage = NonNullable<ChatCompletionChunk['usage']> & { prompt_cache_hit_tokens?: number };

export function readUsage(u: LooseUsage): Usage {
  return {
    promptTokens: u.prompt_tokens ?? 0,
    completionTokens: u.completion_tokens ?? 0,
    cachedTokens: u.prompt_tokens_details?.cached_tokens ?? u.prompt_cache_hit_tokens ?? 0,
  };
}

export class StreamAssembler {
  private text = '';
  private readonly calls = new Map<number, PartialCall>();
  private lastIndex = -1;
  private usage: Usage | null = null;
  private finishReason: string | null = null;

  /** Adds one chunk; returns the text delta it carried ('' when none). */
  add(chunk: ChatCompletionChunk): string {
    if (chunk.usage) this.usage = readUsage(chunk.usage as LooseUsage);
    const choice = chunk.choices?.[0];
    if (!choice) return '';
    this.choices++;
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    for (const d of choice.delta?.tool_calls ?? []) this.addToolDelta(d);
    const delta = typeof choice.delta?.content === 'string' ? choice.delta.content : '';
    this.text += delta;
    return delta;
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
    this.calls.set(index, cur);
  }

  /** Chunks that carried a choice (a delta, a finish reason). */
  choices = 0;

  /** Nothing of an answer arrived: no text, no tool call, no finish reason (only usage, say). */
  get empty(): boolean {
    return !this.text && !this.calls.size && this.finishReason === null;
  }

  /** True once the stream said how it ended (a finish reason, or the final usage chunk). */
  get complete(): boolean {
    return this.finishReason !== null || this.usage !== null;
  }

  result(): ModelResponse {
    const toolCalls: ModelToolCall[] = [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, c]) => ({ id: c.id || `call_${randomUUID().slice(0, 8)}_${index}`, name: c.name, arguments: c.arguments.trim() === '' ? '{}' : c.arguments }));
    return { text: this.text, toolCalls, usage: this.usage, finishReason: this.finishReason };
  }
}
