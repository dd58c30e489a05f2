/**
 * The request in Anthropic's Messages API shape, translated from the OpenAI Chat Completions wire
 * shape every other client speaks: the system prompt as `system` blocks, tool calls as `tool_use`
 * blocks, consecutive tool results as one user message of `tool_result` blocks, data-URL images as
 * base64 `image` blocks, and an assistant's Anthropic thinking blocks sent back first, verbatim.
 *
 * Prompt caching: `cache_control: {type: 'ephemeral'}` breakpoints on the last tool, on the system
 * prompt and on the last block of the last message (3 of the 4 Anthropic allows). The translated
 * tools array is kept per caller array, so unchanged rounds send identical tools and system bytes.
 */
import type { ContentBlockParam, ImageBlockParam, MessageCreateParamsStreaming, MessageParam, TextBlockParam, Tool, ToolResultBlockParam, ToolUseBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ModelRequest, WireContentPart, WireMessage, WireTool } from '../types';

export const EPHEMERAL = { type: 'ephemeral' } as const;

/** Anthropic allows at most this many cache_control breakpoints in one request. */
export const MAX_BREAKPOINTS = 4;

/** max_tokens when model.maxOutputTokens is null: what every current Claude model can answer with (the Claude 3 family: 4096). */
export function defaultMaxTokens(model: string): number {
  return /claude-3-(opus|sonnet|haiku)/i.test(model) ? 4096 : 8192;
}

export interface AnthropicRequestOptions {
  model: string;
  /** model.maxOutputTokens; null: defaultMaxTokens(model). */
  maxOutputTokens?: number | null;
  /** model.thinkingBudgetTokens; null: no extended thinking. */
  thinkingBudgetTokens?: number | null;
  /** Send cache_control breakpoints (model.cacheHints is not "off"). */
  cacheBreakpoints: boolean;
}

/**
 * What the key of a tool_use block carries when the call's arguments were not a JSON object: the
 * raw text, so the model sees what it sent (the tool's result says it could not be read).
 */
export const RAW_ARGUMENTS_KEY = 'invalid_json_arguments';

/** A tool call's arguments as a tool_use input: the parsed object; `{}` for none; anything else wrapped as {invalid_json_arguments: raw}. */
export function toolInput(args: string): Record<string, unknown> {
  if (args.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(args);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    /* wrapped below */
  }
  return { [RAW_ARGUMENTS_KEY]: args };
}

/** The translated tools per caller array: the same array object on unchanged rounds gives the same objects, so the same bytes. */
const toolsCache = new WeakMap<readonly WireTool[], { breakpoint: boolean; tools: Tool[] }>();

export function anthropicTools(tools: readonly WireTool[], breakpoint: boolean): Tool[] {
  const hit = toolsCache.get(tools);
  if (hit && hit.breakpoint === breakpoint) return hit.tools;
  const out: Tool[] = tools.map((t, i) => ({
    name: t.function.name,
    description: t.function.description,
    input_schema: t.function.parameters as Tool['input_schema'],
    ...(breakpoint && i === tools.length - 1 ? { cache_control: EPHEMERAL } : {}),
  }));
  toolsCache.set(tools, { breakpoint, tools: out });
  return out;
}

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

function imageBlock(url: string): ImageBlockParam {
  const m = DATA_URL.exec(url);
  if (m) return { type: 'image', source: { type: 'base64', media_type: m[1] as 'image/png', data: m[2] } };
  return { type: 'image', source: { type: 'url', url } };
}

function userBlocks(content: string | WireContentPart[]): ContentBlockParam[] {
  const parts: WireContentPart[] = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
  const out: ContentBlockParam[] = [];
  for (const p of parts) {
    // Anthropic refuses empty text blocks.
    if (p.type === 'text') {
      if (p.text) out.push({ type: 'text', text: p.text });
    } else out.push(imageBlock(p.image_url.url));
  }
  return out;
}

function assistantBlocks(m: Extract<WireMessage, { role: 'assistant' }>): ContentBlockParam[] {
  const out: ContentBlockParam[] = [];
  // Thinking blocks go back first and verbatim (signatures included): Anthropic checks them in a tool-using turn.
  if (m.reasoning?.source === 'anthropic') {
    for (const b of m.reasoning.blocks ?? []) out.push(b.type === 'thinking' ? { type: 'thinking', thinking: b.thinking, signature: b.signature } : { type: 'redacted_thinking', data: b.data });
  }
  if (m.content) out.push({ type: 'text', text: m.content });
  for (const c of m.tool_calls ?? []) {
    const use: ToolUseBlockParam = { type: 'tool_use', id: c.id, name: c.function.name, input: toolInput(c.function.arguments) };
    out.push(use);
  }
  return out;
}

/**
 * The conversation as Messages API messages: consecutive messages of one role merged into one
 * (tool results, then a user message that carries the pictures a tool produced), empty ones dropped.
 */
export function anthropicMessages(messages: readonly WireMessage[]): { system: string; messages: MessageParam[] } {
  const system: string[] = [];
  const out: Array<{ role: 'user' | 'assistant'; content: ContentBlockParam[] }> = [];
  const push = (role: 'user' | 'assistant', blocks: ContentBlockParam[]) => {
    if (!blocks.length) return;
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const m of messages) {
    if (m.role === 'system') {
      if (m.content) system.push(m.content);
    } else if (m.role === 'user') push('user', userBlocks(m.content));
    else if (m.role === 'assistant') push('assistant', assistantBlocks(m));
    else {
      const result: ToolResultBlockParam = { type: 'tool_result', tool_use_id: m.tool_call_id, ...(m.content ? { content: m.content } : {}) };
      push('user', [result]);
    }
  }
  return { system: system.join('\n\n'), messages: out as MessageParam[] };
}

/** Blocks that may carry cache_control (thinking blocks may not). */
function cacheable(b: ContentBlockParam): b is Exclude<ContentBlockParam, { type: 'thinking' } | { type: 'redacted_thinking' }> {
  return b.type !== 'thinking' && b.type !== 'redacted_thinking';
}

/** The last message with a breakpoint on its last block that can carry one (a copy; the others are unchanged). */
function withLastBreakpoint(messages: MessageParam[]): MessageParam[] {
  const lastIndex = messages.length - 1;
  if (lastIndex < 0) return messages;
  const last = messages[lastIndex];
  const blocks = (last.content as ContentBlockParam[]).slice();
  for (let i = blocks.length - 1; i >= 0; i--) {
    const b = blocks[i];
    if (!cacheable(b)) continue;
    blocks[i] = { ...b, cache_control: EPHEMERAL } as ContentBlockParam;
    const out = messages.slice();
    out[lastIndex] = { ...last, content: blocks } as MessageParam;
    return out;
  }
  return messages;
}

/** max_tokens and thinking: the answer's limit, plus the thinking budget when extended thinking is on (max_tokens must exceed it). */
export function outputParams(opts: Pick<AnthropicRequestOptions, 'model' | 'maxOutputTokens' | 'thinkingBudgetTokens'>): Pick<MessageCreateParamsStreaming, 'max_tokens' | 'thinking'> {
  const answer = opts.maxOutputTokens ?? defaultMaxTokens(opts.model);
  const budget = opts.thinkingBudgetTokens;
  if (!budget) return { max_tokens: answer };
  return { max_tokens: budget + answer, thinking: { type: 'enabled', budget_tokens: budget } };
}

/** The whole streaming request body. */
export function messagesParams(req: ModelRequest, opts: AnthropicRequestOptions): MessageCreateParamsStreaming {
  const { system, messages } = anthropicMessages(req.messages);
  const bp = opts.cacheBreakpoints;
  const systemBlocks: TextBlockParam[] = system ? [{ type: 'text', text: system, ...(bp ? { cache_control: EPHEMERAL } : {}) }] : [];
  // Keys in the order Anthropic builds its cache prefix (tools, system, messages), so the request's
  // own bytes share one prefix with the previous round's up to the messages.
  return {
    model: opts.model,
    ...outputParams(opts),
    ...(req.tools.length ? { tools: anthropicTools(req.tools, bp) } : {}),
    ...(systemBlocks.length ? { system: systemBlocks } : {}),
    messages: bp ? withLastBreakpoint(messages) : messages,
    stream: true,
  };
}

/** The cache_control breakpoints a request body carries (for tests and the debug log). */
export function countBreakpoints(body: unknown): number {
  return (JSON.stringify(body).match(/"cache_control":/g) ?? []).length;
}
