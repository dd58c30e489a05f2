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
  cacheWriteTokens: z.number().int().nonnegative().optional(),
  reasoningTokens: z.number().int().nonnegative().optional(),
  estimated: z.boolean().optional(),
});

const count = z.number().int().nonnegative();

/**
 * The context meter of one model round the provider reported usage for (after that round's
 * `usage`): its tokens, the window and the fill at which a request compacts first, what pruning
 * and deferral left out of the request, and the estimated cost. The host posts it to the webview
 * as it is (protocol's meter message); `snowpea run --json` prints it. Not stored in state.db: it
 * is derived from the stored usage and the request.
 */
export const meterEventSchema = z.object({
  type: z.literal('meter'),
  sessionId,
  /** The round this request belongs to (the same number as `round.start` and `usage`). */
  round: z.number().int(),
  /** Input tokens of the round's request, as the provider counted them. */
  promptTokens: count,
  /** Of those, tokens served from the provider's prompt cache. */
  cachedTokens: count,
  completionTokens: count.optional(),
  /** The model's context window in tokens, to show how full it is. */
  contextWindow: z.number().int().positive().optional(),
  /** Estimated input tokens above which a request compacts the conversation first (agent.compactAt of the window, less the answer budget). */
  compactAtTokens: z.number().int().positive().optional(),
  /** Characters of older tool results replaced by their pruning stubs in this request. */
  prunedChars: count.optional(),
  /** How many tool results were pruned in this request. */
  prunedResults: count.optional(),
  /**
   * Every tool result this request carried as its pruning stub (not only the newly pruned ones):
   * the call, and the stub the model sees instead of the result. The webview marks those cards.
   */
  prunedCalls: z.array(z.object({ callId: z.string(), stub: z.string() })).optional(),
  /** Of completionTokens, the tokens the model spent reasoning (when the provider says). */
  reasoningTokens: count.optional(),
  /** Optional request parts the endpoint refused, which requests there now go without (prompt_cache_key, say). */
  dropped: z.array(z.string()).optional(),
  /** Tools whose schemas were not sent because they are deferred and not loaded. */
  deferredTools: count.optional(),
  /** Estimated tokens those schemas would have cost. */
  deferredTokens: count.optional(),
  /** Estimated US dollars, from the model's prices (absent when they are unknown or the usage is estimated). */
  cost: z
    .object({
      /** This round: cached input, uncached input, output, total. */
      cached: z.number().nonnegative(),
      uncached: z.number().nonnegative(),
      output: z.number().nonnegative(),
      round: z.number().nonnegative(),
      /** The session so far (rounds this agent has run: a window's, a CLI run's), and what sending everything would have cost it. */
      session: z.number().nonnegative(),
      sessionEverything: z.number().nonnegative(),
    })
    .optional(),
});

const money = z.number().nonnegative();
/** What a turn or the session has cost so far, and its budget (agent.budget; null: none). */
const spendSchema = z.object({ spent: money, limit: z.number().positive().nullable() });

/**
 * Before a model request goes out (after any compaction): what it is expected to cost, priced like
 * the meter (core/agent/budget/forecast.ts): its prompt tokens, the part the provider's cache should
 * serve (the prefix it shares with the session's previous request, at the hit rate that request
 * showed), the output the session's rounds averaged so far, and what the turn and the session have
 * cost against their budgets. Only for priced models; told, not stored.
 */
export const costNextEventSchema = z.object({
  type: z.literal('cost.next'),
  sessionId,
  /** The round this request belongs to (the same number as its `round.start`, `usage` and `meter`). */
  round: z.number().int(),
  promptTokens: count,
  cachedTokens: count,
  outputTokens: count,
  /** The expected cost of the request, in the units of the price table. */
  cost: money,
  budget: z.object({ turn: spendSchema, session: spendSchema }),
});

/** A step of the model's todo list (todo_write): the whole list is replaced at each call. */
export const todoStatuses = ['pending', 'in_progress', 'done'] as const;
export const todoItemSchema = z.strictObject({
  text: z.string().trim().min(1).max(300),
  status: z.enum(todoStatuses),
});
/** Most steps one list holds. */
export const MAX_TODOS = 50;
export const todoListSchema = z.array(todoItemSchema).max(MAX_TODOS);
export type TodoItem = z.infer<typeof todoItemSchema>;

/** Session modes: `code` (act: every tool), `plan` and `ask` (read-only). */
export const sessionModes = ['code', 'plan', 'ask'] as const;
export type Mode = (typeof sessionModes)[number];

/** Why a turn ended (the loop's TurnResult and the turn.end event). */
/** `budget`: the next request would have passed agent.budget and the user (or, with nobody to ask, Snowpea) stopped. */
export const turnEndReasons = ['done', 'cancelled', 'max_rounds', 'budget', 'error'] as const;
export type TurnEndReason = (typeof turnEndReasons)[number];

/** An image of a user's message as the chat shows it (the bytes stay in the attachment store). */
const shownImageSchema = z.object({ name: z.string(), mime: z.string(), width: z.number().int().nonnegative(), height: z.number().int().nonnegative() });

export const agentEventSchema = z.discriminatedUnion('type', [
  /**
   * `prompt`: the turn's prompt as text (inlined files and image markers included); `text` and
   * `images`: what the user typed and attached, as the chat shows the message.
   */
  z.object({ type: z.literal('turn.start'), sessionId, turn: z.number().int(), prompt: z.string(), text: z.string().optional(), images: z.array(shownImageSchema).optional() }),
  /**
   * A message the user sent while the turn ran, delivered at a round boundary: appended after that
   * round's tool results (the requests before it stay a prefix of the next). `id`: its queue entry.
   */
  z.object({ type: z.literal('message.delivered'), sessionId, id: z.string().optional(), text: z.string(), images: z.array(shownImageSchema).optional() }),
  z.object({ type: z.literal('round.start'), sessionId, round: z.number().int() }),
  z.object({ type: z.literal('text.delta'), sessionId, text: z.string() }),
  /** Reasoning ("thinking") as it streams: never part of the answer; the chat shows it collapsed. */
  z.object({ type: z.literal('reasoning.delta'), sessionId, text: z.string() }),
  /**
   * `title` heads the tool card (the tool's describeCall on the parsed arguments, else the tool's
   * name); `summary` is the card's line while the call runs (an argument preview when the title is
   * just the name, else ''). Both are computed in core (tools/card-summary.ts), as a replay does.
   */
  z.object({ type: z.literal('tool.call'), sessionId, callId: z.string(), tool: z.string(), args: z.string(), title: z.string(), summary: z.string() }),
  z.object({ type: z.literal('tool.output'), sessionId, callId: z.string(), chunk: z.string() }),
  z.object({
    type: z.literal('tool.result'),
    sessionId,
    callId: z.string(),
    tool: z.string(),
    ok: z.boolean(),
    /** The card's line once the call finished: the first line of the result (tools/card-summary.ts resultSummary). */
    summary: z.string(),
    errorCode: z.string().optional(),
    /**
     * The result text as the model saw it (stub, refusal or output; the webview shows it when
     * the card is expanded), cut to 64 KB by the loop; the stored transcript keeps it whole.
     */
    result: z.string().optional(),
  }),
  z.object({ type: z.literal('tools.loaded'), sessionId, tools: z.array(z.string()) }),
  /** The session's mode changed (the user's plan toggle, /plan, an approved plan, or set_mode). */
  z.object({ type: z.literal('mode'), sessionId, mode: z.enum(sessionModes) }),
  /** The model replaced its todo list (todo_write): the whole new list. */
  z.object({ type: z.literal('todos'), sessionId, todos: todoListSchema }),
  z.object({ type: z.literal('usage'), sessionId, round: z.number().int(), usage: usageSchema }),
  meterEventSchema,
  costNextEventSchema,
  /** A budget is set but cannot be held (the model has no price): said once per model. */
  z.object({ type: z.literal('budget.notice'), sessionId, text: z.string() }),
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
export type MeterEvent = z.infer<typeof meterEventSchema>;
export type CostNextEvent = z.infer<typeof costNextEventSchema>;

/** Type-level check: the event's usage is the model's Usage, both ways (this file stops compiling if they drift). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Expect<T extends true> = T;
export type UsageIsModelUsage = Expect<Same<z.infer<typeof usageSchema>, Usage>>;
