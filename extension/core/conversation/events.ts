import { z } from 'zod';
import type { Usage } from '../model/types';

/**
 * Everything a session reports while it runs; the host and CLI render these, and the host
 * forwards them to the webview as they are. Defined once, as a schema: `AgentEvent` is inferred
 * from it, and extension/protocol re-exports it to check what crosses to the webview.
 */

const sessionId = z.string();

export const usageSchema = z.object({
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  cachedTokens: z.number().int().nonnegative(),
  estimated: z.boolean().optional(),
});

/** Why a turn ended (the loop's TurnResult and the turn.end event). */
export const turnEndReasons = ['done', 'cancelled', 'max_rounds', 'error'] as const;
export type TurnEndReason = (typeof turnEndReasons)[number];

export const agentEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('turn.start'), sessionId, turn: z.number().int(), prompt: z.string() }),
  z.object({ type: z.literal('round.start'), sessionId, round: z.number().int() }),
  z.object({ type: z.literal('text.delta'), sessionId, text: z.string() }),
  z.object({ type: z.literal('tool.call'), sessionId, callId: z.string(), tool: z.string(), args: z.string() }),
  z.object({ type: z.literal('tool.output'), sessionId, callId: z.string(), chunk: z.string() }),
  z.object({
    type: z.literal('tool.result'),
    sessionId,
    callId: z.string(),
    tool: z.string(),
    ok: z.boolean(),
    summary: z.string(),
    errorCode: z.string().optional(),
    /**
     * The result text as the model saw it (stub, refusal or output; the webview shows it when
     * the card is expanded), cut to 64 KB by the loop; the stored transcript keeps it whole.
     */
    result: z.string().optional(),
  }),
  z.object({ type: z.literal('tools.loaded'), sessionId, tools: z.array(z.string()) }),
  z.object({ type: z.literal('usage'), sessionId, round: z.number().int(), usage: usageSchema }),
  z.object({ type: z.literal('retry'), sessionId, attempt: z.number().int(), delayMs: z.number().nonnegative(), reason: z.string() }),
  z.object({ type: z.literal('loop.suspected'), sessionId, tool: z.string(), count: z.number().int() }),
  z.object({ type: z.literal('error'), sessionId, message: z.string(), kind: z.string().optional() }),
  /**
   * The conversation was compacted: later requests carry `summary` (the fallback: an omission note)
   * in place of `rounds` earlier model rounds. Token counts are estimates of the request.
   */
  z.object({
    type: z.literal('compaction'),
    sessionId,
    trigger: z.enum(['auto', 'manual', 'overflow', 'fallback']),
    tokensBefore: z.number().int().nonnegative(),
    tokensAfter: z.number().int().nonnegative(),
    rounds: z.number().int().nonnegative(),
    summary: z.string(),
    model: z.string(),
    focus: z.string().optional(),
    failure: z.string().optional(),
    usage: usageSchema.optional(),
  }),
  z.object({ type: z.literal('turn.end'), sessionId, reason: z.enum(turnEndReasons), rounds: z.number().int() }),
]);

export type AgentEvent = z.infer<typeof agentEventSchema>;
export type AgentEventType = AgentEvent['type'];
export type AgentEventListener = (e: AgentEvent) => void;

/** Type-level check: the event's usage is the model's Usage, both ways (this file stops compiling if they drift). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Expect<T extends true> = T;
export type UsageIsModelUsage = Expect<Same<z.infer<typeof usageSchema>, Usage>>;
