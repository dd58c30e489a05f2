import type { ContentPart, Message } from '../agent/messages';
import { TOOL } from '../tools/names';

export interface PruneOptions {
  enabled: boolean;
  /** Newest tool rounds sent verbatim (agent.keepToolRounds). */
  keepToolRounds: number;
  /** Newest skill_view results kept whole (skills.protectRecentViews). */
  protectRecentViews: number;
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

export function imagePrunedStub(name: string): string {
  return `[earlier image ${name} pruned; call view_image again if you need it]`;
}

/**
 * seed: session/compaction prune_old_tool_outputs. Returns a copy of the transcript for the
 * outgoing request in which results of tool rounds older than the newest `keepToolRounds`
 * become one-line stubs (a result shorter than its stub stays), images carried for those
 * rounds become text, and skill_view bodies follow their own rule. The input is never modified.
 */
export function pruneOldToolOutputs(messages: Message[], opts: PruneOptions): PruneResult {
  const prunedCallIds = new Set<string>();
  if (!opts.enabled) return { messages, prunedCallIds, savedChars: 0 };

  // Which assistant message (tool round) each index belongs to, counted from the newest.
  const roundOf = new Array<number>(messages.length).fill(-1);
  const skillNames = new Map<string, string>();
  let age = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === 'assistant' && m.toolCalls?.length) {
      age++;
      for (const c of m.toolCalls) if (c.name === TOOL.skill_view) skillNames.set(c.id, skillNameOf(c.arguments));
      for (let j = i + 1; j < messages.length && roundOf[j] === -1 && messages[j].role !== 'assistant'; j++) {
        if (messages[j].role === 'tool' || (messages[j].role === 'user' && (messages[j] as { attachedBy?: string }).attachedBy)) roundOf[j] = age;
      }
    }
  }

  // skill_view results: the newest `protectRecentViews` stay whole.
  const skillIdx = messages.flatMap((m, i) => (m.role === 'tool' && m.toolName === TOOL.skill_view ? [i] : []));
  const oldSkills = new Set(skillIdx.slice(0, Math.max(0, skillIdx.length - opts.protectRecentViews)));

  let savedChars = 0;
  const out = messages.map((m, i): Message => {
    if (m.role === 'tool' && m.toolName === TOOL.skill_view) {
      if (!oldSkills.has(i)) return m;
      const stubbed = skillStubFor(m, skillNames.get(m.toolCallId) ?? 'unknown');
      if (stubbed === m) return m;
      savedChars += m.content.length - stubbed.content.length;
      prunedCallIds.add(m.toolCallId);
      return stubbed;
    }
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

/** An old skill_view result as the request carries it: its stub, or itself (failed, or shorter than the stub). */
export function skillStubFor(m: ToolMessage, skillName: string): ToolMessage {
  if (!m.ok) return m;
  const stub = skillPrunedStub(skillName);
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

/** The skill name a skill_view call asked for ('unknown' when its arguments say none). */
export function skillNameOf(args: string): string {
  try {
    const name = (JSON.parse(args) as { name?: unknown }).name;
    return typeof name === 'string' ? name : 'unknown';
  } catch {
    return 'unknown';
  }
}
