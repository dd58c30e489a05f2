import type { ContentPart, Message } from '../conversation/messages';
import { TOOL } from '../tools/names';
import { builtinPruneRule, type PruneRule } from './prune-rule';

export interface PruneOptions {
  enabled: boolean;
  /** Newest tool rounds sent verbatim (agent.keepToolRounds). */
  keepToolRounds: number;
  /** Newest results of 'recent-views' tools (skill_view) kept whole (skills.protectRecentViews). */
  protectRecentViews: number;
  /** Each tool's prune trait (default: the built-in tools'); pass the same function each call, or PruneCache starts over. */
  pruneRule?: PruneRule;
  /** agent.pruneStrategy (default 'rolling'); 'cache-aware' needs the cache prices below. pruneOldToolOutputs is always rolling. */
  strategy?: 'rolling' | 'cache-aware';
  /** The model's cache prices relative to uncached input: cached input (discount) and cache writes (writePremium). */
  prices?: { discount: number; writePremium: number };
}

export interface PruneResult {
  messages: Message[];
  /** Tool call ids whose results the request does not carry in full. */
  prunedCallIds: Set<string>;
  /** Characters of tool output left out of the request. */
  savedChars: number;
}

export function prunedStub(tool: string, chars: number): string {
  return `[earlier ${tool} output pruned — ${chars} chars; re-run the tool if you need it again]`;
}

export function skillPrunedStub(name: string): string {
  return `[SKILL_PRUNED: ${name}; call skill_view("${name}") to reload]`;
}

/** A call's arguments longer than this (compact JSON) are not repeated in a recent-views stub. */
const VIEW_ARGS_SHOWN = 200;

/**
 * The stub of an old result of a 'recent-views' tool: the call that reloads it, made of the
 * result's own tool name and its call's own arguments (undefined: the call was not found).
 * skill_view's keeps its words (skillPrunedStub: the skill's name), byte for byte.
 */
export function viewPrunedStub(tool: string, args: string | undefined): string {
  if (tool === TOOL.skill_view) return skillPrunedStub(skillNameOf(args));
  const shown = compactArgs(args);
  if (shown === undefined) return `[VIEW_PRUNED: ${tool}; call ${tool} again${args === undefined ? '' : ' with the same arguments'} to reload]`;
  return `[VIEW_PRUNED: ${tool}; call ${tool}(${shown}) to reload]`;
}

/** A call's arguments as one line of JSON, or undefined when they are not JSON or too long to repeat. */
function compactArgs(args: string | undefined): string | undefined {
  if (args === undefined) return undefined;
  try {
    const text = JSON.stringify(JSON.parse(args));
    return text.length <= VIEW_ARGS_SHOWN ? text : undefined;
  } catch {
    return undefined;
  }
}

export function imagePrunedStub(name: string): string {
  return `[earlier image ${name} pruned; call view_image again if you need it]`;
}

/**
 * Pruning (docs/design.md, Pruning). Returns a copy of the transcript for the
 * outgoing request in which results of tool rounds older than the newest `keepToolRounds`
 * become one-line stubs (a result shorter than its stub stays), images carried for those
 * rounds become text, and results of tools whose trait is 'recent-views' (skill_view's bodies)
 * follow their own rule: the newest protectRecentViews stay, older ones become viewPrunedStub.
 * The input is never modified.
 */
export function pruneOldToolOutputs(messages: Message[], opts: PruneOptions): PruneResult {
  const prunedCallIds = new Set<string>();
  if (!opts.enabled) return { messages, prunedCallIds, savedChars: 0 };
  const byViews = keptByViews(opts);

  // Which assistant message (tool round) each index belongs to, counted from the newest; the assistant message itself too (callRound).
  const roundOf = new Array<number>(messages.length).fill(-1);
  const callRound = new Array<number>(messages.length).fill(0);
  /** The arguments of each recent-views call, by call id (the oldest call with an id). */
  const viewArgs = new Map<string, string>();
  let age = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === 'assistant' && m.toolCalls?.length) {
      age++;
      callRound[i] = age;
      for (const c of m.toolCalls) if (byViews(c.name)) viewArgs.set(c.id, c.arguments);
      for (let j = i + 1; j < messages.length && roundOf[j] === -1 && messages[j].role !== 'assistant'; j++) {
        if (messages[j].role === 'tool' || (messages[j].role === 'user' && (messages[j] as { attachedBy?: string }).attachedBy)) roundOf[j] = age;
      }
    }
  }

  // Results of 'recent-views' tools: the newest `protectRecentViews` stay whole.
  const viewIdx = messages.flatMap((m, i) => (m.role === 'tool' && byViews(m.toolName) ? [i] : []));
  const oldViews = new Set(viewIdx.slice(0, Math.max(0, viewIdx.length - opts.protectRecentViews)));

  let savedChars = 0;
  const out = messages.map((m, i): Message => {
    if (m.role === 'tool' && byViews(m.toolName)) {
      if (!oldViews.has(i)) return m;
      const stubbed = viewStubFor(m, viewArgs.get(m.toolCallId));
      if (stubbed === m) return m;
      savedChars += m.content.length - stubbed.content.length;
      prunedCallIds.add(m.toolCallId);
      return stubbed;
    }
    if (callRound[i] > opts.keepToolRounds) return oldCallArgsStubFor(m);
    if (roundOf[i] <= opts.keepToolRounds) return m;
    const stubbed = oldRoundStubFor(m);
    if (stubbed !== m && m.role === 'tool') {
      savedChars += m.content.length - (stubbed as ToolMessage).content.length;
      prunedCallIds.add(m.toolCallId);
    }
    return stubbed;
  });
  return { messages: out, prunedCallIds, savedChars };
}

type ToolMessage = Extract<Message, { role: 'tool' }>;

/** Whether a tool's results are kept by recency of views (its prune trait is 'recent-views') rather than by round. */
export function keptByViews(opts: Pick<PruneOptions, 'pruneRule'>): (toolName: string) => boolean {
  const rule = opts.pruneRule ?? builtinPruneRule;
  return (toolName) => rule(toolName) === 'recent-views';
}

/** An old result of a recent-views tool as the request carries it: its stub (viewPrunedStub), or itself (failed, or shorter than the stub). */
export function viewStubFor(m: ToolMessage, callArgs: string | undefined): ToolMessage {
  if (!m.ok) return m;
  const stub = viewPrunedStub(m.toolName, callArgs);
  return stub.length >= m.content.length ? m : { ...m, content: stub };
}

/**
 * A message of a tool round older than keepToolRounds as the request carries it: a tool result
 * becomes its stub (unless shorter than it), images carried for the round become text. Other
 * messages come back unchanged (the same object).
 */
export function oldRoundStubFor(m: Message): Message {
  if (m.role === 'tool') {
    const stub = prunedStub(m.toolName, m.content.length);
    return stub.length >= m.content.length ? m : { ...m, content: stub };
  }
  if (m.role === 'user' && Array.isArray(m.content)) {
    return { ...m, content: m.content.map((p): ContentPart => (p.type === 'image' ? { type: 'text', text: imagePrunedStub(p.name) } : p)) };
  }
  return m;
}

/** Arguments shorter than this are sent as they are, however old. */
export const ARG_PRUNE_MIN_CHARS = 1000;
/** In a pruned call's arguments, string values longer than this become a note; shorter ones (paths, flags) stay. */
const ARG_VALUE_KEEP = 200;

/** `[1234 chars sent in full when this call ran; omitted from this old request]` */
export function prunedArgNote(chars: number): string {
  return `[${chars} chars sent in full when this call ran; omitted from this old request]`;
}

/**
 * The assistant message of an old tool round as the request carries it: each call whose arguments
 * are large (a whole file for write_file, long edit_file strings) keeps its short values (path,
 * flags) and gets a note instead of each long string value, so a 9 KB write is not re-sent every
 * round. Malformed or small arguments stay as they are; state.db keeps every byte.
 */
export function oldCallArgsStubFor(m: Message): Message {
  if (m.role !== 'assistant' || !m.toolCalls?.some((c) => c.arguments.length >= ARG_PRUNE_MIN_CHARS)) return m;
  let changed = false;
  const toolCalls = m.toolCalls.map((c) => {
    if (c.arguments.length < ARG_PRUNE_MIN_CHARS) return c;
    let args: unknown;
    try {
      args = JSON.parse(c.arguments);
    } catch {
      return c;
    }
    if (!args || typeof args !== 'object' || Array.isArray(args)) return c;
    const short = Object.fromEntries(Object.entries(args as Record<string, unknown>).map(([k, v]) => [k, typeof v === 'string' && v.length > ARG_VALUE_KEEP ? prunedArgNote(v.length) : v]));
    const text = JSON.stringify(short);
    if (text.length >= c.arguments.length) return c;
    changed = true;
    return { ...c, arguments: text };
  });
  return changed ? { ...m, toolCalls } : m;
}

/** The skill name a skill_view call asked for ('unknown' when its arguments say none, or the call was not found). */
function skillNameOf(args: string | undefined): string {
  if (args === undefined) return 'unknown';
  try {
    const name = (JSON.parse(args) as { name?: unknown }).name;
    return typeof name === 'string' ? name : 'unknown';
  } catch {
    return 'unknown';
  }
}
