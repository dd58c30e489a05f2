import { z } from 'zod';

/**
 * The context meter of one model round, host -> webview. The `usage` event already gives the
 * token counts; this message adds what Snowpea saved in that round's request. Every saving is
 * optional: the webview shows what it gets. Posted after (or instead of) the round's `usage`.
 */

const count = z.number().int().nonnegative();

export const meterMessageSchema = z.object({
  type: z.literal('meter'),
  sessionId: z.string(),
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
  /** Tools whose schemas were not sent because they are deferred and not loaded. */
  deferredTools: count.optional(),
  /** Estimated tokens those schemas would have cost. */
  deferredTokens: count.optional(),
  /** Estimated US dollars, from the model's prices (absent when they are unknown). */
  cost: z
    .object({
      /** This round: cached input, uncached input, output, total. */
      cached: z.number().nonnegative(),
      uncached: z.number().nonnegative(),
      output: z.number().nonnegative(),
      round: z.number().nonnegative(),
      /** The session so far (rounds this window has seen), and what sending everything would have cost it. */
      session: z.number().nonnegative(),
      sessionEverything: z.number().nonnegative(),
    })
    .optional(),
});

export type MeterMessage = z.infer<typeof meterMessageSchema>;
