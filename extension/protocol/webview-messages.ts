import { z } from 'zod';
import { effortSchema, modelNameSchema } from './model-picker';

/** Messages the webview posts to the extension host. */

/** Largest image the composer accepts (decoded bytes). */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
/** Base64 length of an image of MAX_IMAGE_BYTES. */
export const MAX_IMAGE_BASE64_CHARS = Math.ceil(MAX_IMAGE_BYTES / 3) * 4;
export const MAX_IMAGES_PER_MESSAGE = 20;
export const MAX_SEND_TEXT_CHARS = 1_000_000;
export const MAX_FILE_QUERY_CHARS = 500;

export const approvalDecisions = ['allow', 'allowAlways', 'deny'] as const;
export const budgetDecisions = ['continue', 'raise', 'stop'] as const;
/** A budget the card raises to: as agent.budget takes it. */
const budgetAmount = z.number().positive().max(1_000_000);

/** A message sent while a turn runs: `steer` at the turn's next round boundary, `queue` as a new turn when it ends. */
export const deliveries = ['steer', 'queue'] as const;
export type Delivery = (typeof deliveries)[number];

export const outgoingImageSchema = z.object({
  name: z.string().min(1).max(512),
  mime: z.string().regex(/^image\/[a-z0-9.+-]+$/i, 'must be an image/* MIME type'),
  dataBase64: z
    .string()
    .min(1)
    .max(MAX_IMAGE_BASE64_CHARS, 'image is larger than 20 MB')
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64 without a data: prefix'),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});

export const webviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z
    .object({
      type: z.literal('send'),
      text: z.string().max(MAX_SEND_TEXT_CHARS),
      images: z.array(outgoingImageSchema).max(MAX_IMAGES_PER_MESSAGE).optional(),
      /** While a turn runs: how the message waits (absent: the chat.messagesDuringTurn setting). Ignored when no turn runs. */
      delivery: z.enum(deliveries).optional(),
    })
    .refine((m) => m.text.trim().length > 0 || (m.images?.length ?? 0) > 0, { message: 'send needs text or an image' }),
  /** A message waiting while a turn runs (`queue` lists them): new text (its images stay), removed, its delivery switched, or sent now. */
  z.object({ type: z.literal('queue.edit'), id: z.string().max(100), text: z.string().max(MAX_SEND_TEXT_CHARS) }),
  z.object({ type: z.literal('queue.remove'), id: z.string().max(100) }),
  z.object({ type: z.literal('queue.delivery'), id: z.string().max(100), delivery: z.enum(deliveries) }),
  z.object({ type: z.literal('queue.sendNow'), id: z.string().max(100) }),
  z.object({ type: z.literal('stop') }),
  z.object({ type: z.literal('newChat') }),
  z.object({ type: z.literal('approval.reply'), id: z.string(), decision: z.enum(approvalDecisions) }),
  z.object({ type: z.literal('ask.reply'), id: z.string(), answer: z.string() }),
  /** The budget card's answer: continue once, stop, or raise the budgets that were passed to the amounts given. */
  z
    .object({ type: z.literal('budget.reply'), id: z.string(), decision: z.enum(budgetDecisions), turn: budgetAmount.optional(), session: budgetAmount.optional() })
    .refine((m) => m.decision !== 'raise' || m.turn !== undefined || m.session !== undefined, { message: 'raise needs a new turn or session budget' }),
  /** The changed-files list: Keep or Undo one file (`path` as listed) or, without a path, all; open its diff against the turn's start. */
  z.object({ type: z.literal('changes.keep'), path: z.string().optional() }),
  z.object({ type: z.literal('changes.undo'), path: z.string().optional() }),
  z.object({ type: z.literal('changes.open'), path: z.string() }),
  /** Keep or Undo one hunk of a listed file: `key` as the list gave it. */
  z.object({ type: z.literal('changes.keepHunk'), path: z.string(), key: z.string().max(100) }),
  z.object({ type: z.literal('changes.undoHunk'), path: z.string(), key: z.string().max(100) }),
  /** Run the last prompt again (after a provider error); the host re-sends it as a new turn. */
  z.object({ type: z.literal('retry') }),
  /** Insert a code block from the chat at the cursor of the active editor. */
  z.object({
    type: z.literal('insertCode'),
    code: z.string().max(MAX_SEND_TEXT_CHARS),
    /** The fence's info string (e.g. `ts`), when it had one. */
    language: z.string().max(100).optional(),
  }),
  /** `@` in the composer: workspace files matching `query` (fuzzy; empty = recent/any). Answered by `files.result`. */
  z.object({ type: z.literal('files.query'), query: z.string().max(MAX_FILE_QUERY_CHARS) }),
  /** Open the session history (the host's Resume Session picker). */
  z.object({ type: z.literal('history') }),
  /** `/compact [focus]` in the composer: compact the conversation now, the summary keeping `focus` in particular. */
  z.object({ type: z.literal('compact'), focus: z.string().max(MAX_SEND_TEXT_CHARS).optional() }),
  /**
   * A user message's restore action: put the files back as they were before the message of `turn`
   * (its checkpoint) and, with `rewind`, take the conversation back to before it too.
   */
  z.object({ type: z.literal('checkpoint.restore'), sessionId: z.string(), turn: z.number().int().positive(), rewind: z.boolean() }),
  /** The composer's plan toggle, `/plan` and `/act`: the chat's mode (code is act mode: every tool). */
  z.object({ type: z.literal('mode.set'), mode: z.enum(['code', 'plan']) }),
  /** `/agent NAME`: the chat runs as that custom agent from its next request (null, `/agent` alone: Snowpea's own). */
  z.object({ type: z.literal('agent.set'), name: z.string().min(1).max(200).nullable() }),
  /** "Approve plan": switch the plan-mode session to act (code) mode and have the model carry the plan out. */
  z.object({ type: z.literal('plan.approve') }),
  /** A button of the setup card: one of the few palette commands the chat may run (workbench.trust.manage: Manage Workspace Trust). */
  z.object({ type: z.literal('runCommand'), command: z.enum(['snowpea.setApiKey', 'snowpea.selectModel', 'snowpea.openSettings', 'workbench.trust.manage']) }),
  /** The composer's model picker opened: the models the provider lists. Answered by `models.result`. */
  z.object({ type: z.literal('models.list') }),
  /** The model picker: the session's model for its next request (null: back to the model.name setting). Stored with the session, never in settings. */
  z.object({ type: z.literal('model.set'), model: modelNameSchema.nullable() }),
  /** The effort control: the session's reasoning effort (null: the default). */
  z.object({ type: z.literal('effort.set'), effort: effortSchema.nullable() }),
]);

export type WebviewMessage = z.infer<typeof webviewMessageSchema>;
export type WebviewMessageType = WebviewMessage['type'];
export type OutgoingImage = z.infer<typeof outgoingImageSchema>;
export type ApprovalDecision = (typeof approvalDecisions)[number];
