/**
 * Folds the Messages API's raw stream events into one ModelResponse: text deltas concatenated,
 * tool_use blocks with their input JSON assembled from input_json_delta, thinking (and redacted
 * thinking) blocks kept verbatim with their signatures beside the answer, never in it, the stop
 * reason normalised, and usage from message_start updated by message_delta's cumulative counts.
 * Blocks of server tools (web search, code execution, tool search) are not calls for the agent.
 */
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { ModelResponse, ModelToolCall, Reasoning, Usage } from '../types';

type ThinkingBlock = NonNullable<Reasoning['blocks']>[number];

type Block =
  | { kind: 'text' }
  | { kind: 'thinking'; block: Extract<ThinkingBlock, { type: 'thinking' }> }
  | { kind: 'redacted'; block: Extract<ThinkingBlock, { type: 'redacted_thinking' }> }
  | { kind: 'tool'; id: string; name: string; json: string; startInput: unknown }
  | { kind: 'other' };

/** Anthropic's usage counters, as message_start and message_delta carry them (any may be null or absent). */
interface RawUsage {
  input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  output_tokens?: number | null;
  output_tokens_details?: { thinking_tokens?: number | null } | null;
}

/** A block or delta as sent, read field by field (a newer API may add types). */
type Loose = { type: string } & Record<string, unknown>;

const COUNTERS = ['input_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens', 'output_tokens'] as const;

/** stop_reason in the words every client uses: end_turn/stop_sequence -> stop, tool_use -> tool_calls, max_tokens -> length, refusal -> content_filter; others as sent. */
export function finishReasonOf(stopReason: string | null | undefined): string | null {
  switch (stopReason) {
    case null:
    case undefined:
      return null;
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
      return 'length';
    case 'refusal':
      return 'content_filter';
    default:
      return stopReason;
  }
}

/** What one event carried for the caller to stream. */
export interface EventDeltas {
  text: string;
  reasoning: string;
}

const NONE: EventDeltas = { text: '', reasoning: '' };

export class AnthropicStreamAssembler {
  private text = '';
  private reasoning = '';
  private readonly blocks = new Map<number, Block>();
  private readonly counters: Partial<Record<(typeof COUNTERS)[number], number>> = {};
  private thinkingTokens: number | undefined;
  private sawUsage = false;
  private stopReason: string | null = null;
  private stopped = false;

  /** Adds one event; returns the answer text and the reasoning it carried ('' when none). */
  add(event: RawMessageStreamEvent): EventDeltas {
    switch (event.type) {
      case 'message_start':
        this.readUsage(event.message.usage as RawUsage | undefined);
        return NONE;
      case 'content_block_start':
        return this.start(event.index, event.content_block as unknown as Loose);
      case 'content_block_delta':
        return this.delta(event.index, event.delta as unknown as Loose);
      case 'message_delta':
        if (event.delta.stop_reason) this.stopReason = event.delta.stop_reason;
        this.readUsage(event.usage as RawUsage | undefined);
        return NONE;
      case 'message_stop':
        this.stopped = true;
        return NONE;
      default:
        // content_block_stop, and events a newer API may add.
        return NONE;
    }
  }

  private start(index: number, b: Loose): EventDeltas {
    const str = (v: unknown) => (typeof v === 'string' ? v : '');
    switch (b.type) {
      case 'text': {
        this.blocks.set(index, { kind: 'text' });
        return this.addText(str(b.text));
      }
      case 'thinking': {
        const block = { type: 'thinking' as const, thinking: str(b.thinking), signature: str(b.signature) };
        this.blocks.set(index, { kind: 'thinking', block });
        this.reasoning += block.thinking;
        return { text: '', reasoning: block.thinking };
      }
      case 'redacted_thinking':
        this.blocks.set(index, { kind: 'redacted', block: { type: 'redacted_thinking', data: str(b.data) } });
        return NONE;
      case 'tool_use':
        this.blocks.set(index, { kind: 'tool', id: str(b.id), name: str(b.name), json: '', startInput: b.input });
        return NONE;
      default:
        this.blocks.set(index, { kind: 'other' });
        return NONE;
    }
  }

  private delta(index: number, d: Loose): EventDeltas {
    const block = this.blocks.get(index);
    if (!block) return NONE;
    if (d.type === 'text_delta' && block.kind === 'text' && typeof d.text === 'string') return this.addText(d.text);
    if (d.type === 'input_json_delta' && block.kind === 'tool' && typeof d.partial_json === 'string') block.json += d.partial_json;
    if (d.type === 'thinking_delta' && block.kind === 'thinking' && typeof d.thinking === 'string') {
      block.block.thinking += d.thinking;
      this.reasoning += d.thinking;
      return { text: '', reasoning: d.thinking };
    }
    if (d.type === 'signature_delta' && block.kind === 'thinking' && typeof d.signature === 'string') block.block.signature += d.signature;
    return NONE;
  }

  private addText(t: string): EventDeltas {
    this.text += t;
    return { text: t, reasoning: '' };
  }

  /** message_start's counters, then message_delta's (cumulative: each one present replaces the earlier). */
  private readUsage(u: RawUsage | null | undefined): void {
    if (!u) return;
    for (const k of COUNTERS) {
      const v = u[k];
      if (typeof v === 'number') {
        this.counters[k] = v;
        this.sawUsage = true;
      }
    }
    const thinking = u.output_tokens_details?.thinking_tokens;
    if (typeof thinking === 'number') this.thinkingTokens = thinking;
  }

  /** The stream said how it ended (message_stop, or a stop reason). */
  get complete(): boolean {
    return this.stopped || this.stopReason !== null;
  }

  /** Nothing of an answer arrived (no text, no thinking, no tool call, no stop reason). */
  get empty(): boolean {
    return !this.text && !this.reasoning && ![...this.blocks.values()].some((b) => b.kind !== 'other' && b.kind !== 'text') && this.stopReason === null;
  }

  usage(): Usage | null {
    if (!this.sawUsage) return null;
    const c = this.counters;
    const write = c.cache_creation_input_tokens ?? 0;
    const read = c.cache_read_input_tokens ?? 0;
    const out: Usage = {
      promptTokens: (c.input_tokens ?? 0) + write + read,
      completionTokens: c.output_tokens ?? 0,
      cachedTokens: read,
      cacheWriteTokens: write,
    };
    if (this.thinkingTokens) out.reasoningTokens = this.thinkingTokens;
    return out;
  }

  result(): ModelResponse {
    const ordered = [...this.blocks.entries()].sort(([a], [b]) => a - b).map(([, b]) => b);
    const toolCalls: ModelToolCall[] = [];
    const thinking: ThinkingBlock[] = [];
    for (const b of ordered) {
      if (b.kind === 'tool') toolCalls.push({ id: b.id, name: b.name, arguments: argumentsOf(b) });
      else if (b.kind === 'thinking') thinking.push(b.block);
      else if (b.kind === 'redacted') thinking.push(b.block);
    }
    const reasoning: Reasoning | undefined = thinking.length ? { text: this.reasoning, source: 'anthropic', blocks: thinking } : undefined;
    return { text: this.text, toolCalls, usage: this.usage(), finishReason: finishReasonOf(this.stopReason), ...(reasoning ? { reasoning } : {}) };
  }
}

/** The call's arguments: the JSON streamed in input_json_delta, else the input content_block_start carried, else `{}`. */
function argumentsOf(b: Extract<Block, { kind: 'tool' }>): string {
  if (b.json.trim() !== '') return b.json;
  const start = b.startInput;
  if (start && typeof start === 'object' && Object.keys(start).length) return JSON.stringify(start);
  return '{}';
}
