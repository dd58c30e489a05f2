/**
 * Money under Anthropic's own prompt cache, which works differently from the automatic prefix
 * caching cache-cost.ts models. Each recorded request is translated by the real Anthropic client's
 * `messagesParams` (extension/core/model/anthropic/request.ts), so the cache_control breakpoints are
 * the ones Snowpea sends: the last tool, the system prompt and the last block of the last message.
 *
 * How Anthropic's cache behaves, as modelled here (from its prompt-caching documentation, in our words):
 * - The prompt is laid out as tools, then system, then messages, and is cut into content blocks
 *   (each tool definition, each system text block, each block of each message). Only a prefix
 *   that ends at a block marked with cache_control is ever stored: nothing in between counts.
 * - When a request arrives, each of its breakpoints first looks for a stored prefix ending exactly
 *   there, then walks back block by block looking for one stored by an earlier request, over a
 *   window of LOOKBACK positions (the breakpoint itself included). The longest prefix found over
 *   all breakpoints is read from the cache (billed at `discount`).
 * - Everything after that, up to the request's last breakpoint, is written to the cache (billed
 *   at `writePremium`); one entry is stored per breakpoint. Tokens after the last breakpoint are
 *   plain input (billed 1).
 * - A prefix shorter than the model's minimum (1,024 tokens for Sonnet and Opus, 2,048 for Haiku)
 *   is not cached even when marked: it is neither written nor found later.
 * - An entry expires 5 minutes after it was last used. The replayed trajectories carry no
 *   timestamps, so every request is assumed to come within that window of the one before it:
 *   nothing expires here (a slow tool or a user pausing would cost more in reality).
 *
 * Token positions: each block is serialized as JSON (without its cache_control marker, which is not
 * part of what is cached) and tokenized with o200k_base (gpt-tokenizer), the same approximation the
 * rest of the bench uses; Anthropic's tokenizer and its internal rendering of the prompt differ,
 * so positions are estimates. Each message adds a small `{"role":…}` part before its first block.
 * Model, max_tokens and thinking settings are not input tokens and are left out.
 */
import { encode } from 'gpt-tokenizer';
import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages';
import { messagesParams } from '../extension/core/model/anthropic/request';
import type { WireMessage, WireTool } from '../extension/core/model/types';
import type { PriceModel, SessionCache } from './cache-cost';

/** How far back from a breakpoint the cache looks for an earlier entry, in block positions (the breakpoint's own included). */
export const LOOKBACK = 20;

export interface AnthropicRules {
  /** Shortest cacheable prefix, in tokens. */
  minCached: number;
  /** Block positions checked per breakpoint. */
  lookback: number;
}

export const SONNET_RULES: AnthropicRules = { minCached: 1024, lookback: LOOKBACK };
export const HAIKU_RULES: AnthropicRules = { minCached: 2048, lookback: LOOKBACK };

/** The bench's row: Snowpea's Claude defaults (model.cacheDiscount 0.1, model.cacheWritePremium 1.25), cache rules of Sonnet. */
export const ANTHROPIC_NATIVE: PriceModel & { rules: AnthropicRules } = { name: 'Anthropic native (breakpoints, writes 125%, reads 10%)', discount: 0.1, writePremium: 1.25, rules: SONNET_RULES };

/** One content block of a request, in cache order. */
export interface CacheBlock {
  /** Identity of the whole prefix through this block: equal ids, identical prefixes. */
  prefix: number;
  /** Tokens from the start of the request through this block. */
  end: number;
  /** The block carries cache_control. */
  breakpoint: boolean;
}

export interface AnthropicRequestTokens {
  blocks: CacheBlock[];
  /** Input tokens of the whole request (blocks and role parts). */
  total: number;
}

/** The Messages API body the Anthropic client would send for a recorded Chat Completions body. */
export function anthropicParams(body: { messages: unknown[]; tools?: unknown[] }, model = 'claude-sonnet-4-5'): MessageCreateParamsStreaming {
  return messagesParams({ messages: body.messages as WireMessage[], tools: (body.tools ?? []) as WireTool[] }, { model, cacheBreakpoints: true });
}

const withoutMarker = (o: object): object => {
  const c: Record<string, unknown> = { ...o };
  delete c.cache_control;
  return c;
};

/** Token counts and prefix ids for translated requests; parts are tokenized once and reused across requests. */
export class AnthropicTokenizer {
  private readonly parts = new Map<string, { id: number; tokens: number }>();
  private readonly prefixes = new Map<string, number>();

  private part(text: string): { id: number; tokens: number } {
    let p = this.parts.get(text);
    if (!p) {
      p = { id: this.parts.size, tokens: encode(text).length };
      this.parts.set(text, p);
    }
    return p;
  }

  /** The prefix id after appending a part to the prefix `prev` (-1: empty). */
  private extend(prev: number, partId: number): number {
    const key = `${prev}:${partId}`;
    let id = this.prefixes.get(key);
    if (id === undefined) {
      id = this.prefixes.size;
      this.prefixes.set(key, id);
    }
    return id;
  }

  request(params: Pick<MessageCreateParamsStreaming, 'tools' | 'system' | 'messages'>): AnthropicRequestTokens {
    const blocks: CacheBlock[] = [];
    let prefix = -1;
    let end = 0;
    const add = (item: unknown, block: boolean) => {
      const p = this.part(JSON.stringify(typeof item === 'object' && item ? withoutMarker(item) : item));
      prefix = this.extend(prefix, p.id);
      end += p.tokens;
      if (block) blocks.push({ prefix, end, breakpoint: typeof item === 'object' && item !== null && 'cache_control' in item && !!item.cache_control });
    };
    for (const t of params.tools ?? []) add(t, true);
    const system = params.system;
    if (typeof system === 'string') add({ type: 'text', text: system }, true);
    else for (const b of system ?? []) add(b, true);
    for (const m of params.messages) {
      add({ role: m.role }, false);
      const content = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
      for (const b of content) add(b, true);
    }
    return { blocks, total: end };
  }
}

export interface AnthropicSessionCache extends SessionCache {
  /** Tokens of each request written to the cache (the rest of each request beyond `cached` is plain input). */
  written: number[];
}

/** Read, written and plain tokens of each request of one session, in order, under Anthropic's rules. */
export function simulateAnthropicCache(requests: AnthropicRequestTokens[], rules: AnthropicRules): AnthropicSessionCache {
  const stored = new Set<number>();
  const total: number[] = [];
  const cached: number[] = [];
  const written: number[] = [];
  for (const r of requests) {
    const breakpoints = r.blocks.flatMap((b, i) => (b.breakpoint ? [i] : []));
    let read = 0;
    for (const b of breakpoints) {
      // The nearest stored entry at or before the breakpoint, within the window, is this breakpoint's longest hit.
      for (let i = b; i >= 0 && i > b - rules.lookback; i--) {
        if (stored.has(r.blocks[i].prefix)) {
          read = Math.max(read, r.blocks[i].end);
          break;
        }
      }
    }
    const last = breakpoints.length ? r.blocks[breakpoints[breakpoints.length - 1]].end : 0;
    written.push(last >= rules.minCached ? Math.max(0, last - read) : 0);
    // Stored after the lookup: a request does not read what it writes itself.
    for (const b of breakpoints) if (r.blocks[b].end >= rules.minCached) stored.add(r.blocks[b].prefix);
    total.push(r.total);
    cached.push(read);
  }
  return { total, cached, written };
}

/** Cost of each request in uncached-token units: reads at the discount, writes at the premium, the tail after the last breakpoint at 1. */
export function anthropicCosts(c: AnthropicSessionCache, price: Pick<PriceModel, 'discount' | 'writePremium'>): number[] {
  return c.total.map((t, i) => c.cached[i] * price.discount + c.written[i] * price.writePremium + (t - c.cached[i] - c.written[i]));
}
