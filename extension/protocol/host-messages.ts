import { z } from 'zod';
import { agentEventMessageSchema, sessionModes, todoListSchema } from './agent-event';
import { meterMessageSchema } from './meter';
import { effortInfoSchema, modelsResultSchema } from './model-picker';
import { deliveries, MAX_IMAGE_BASE64_CHARS } from './webview-messages';

/** Messages the extension host posts to the webview. */

/** Most paths one `files.result` carries. */
export const MAX_FILE_RESULTS = 200;

/** An image as the transcript remembers it: metadata only, the bytes stay in the host's attachment store. */
export const imageMetaSchema = z.object({
  name: z.string(),
  mime: z.string(),
  width: z.number().int().nonnegative(),
  height: z.number().int().nonnegative(),
});

/** One stored message of a session, replayed on resume or after the webview reloaded. */
export const transcriptEntrySchema = z.discriminatedUnion('role', [
  /**
   * `turn`: which of the user's messages it is (from 1, over the whole stored transcript); Restore
   * names it. `duringTurn`: sent while a turn ran and read at one of its steps (it has no turn).
   */
  z.object({ role: z.literal('user'), text: z.string(), images: z.array(imageMetaSchema).optional(), turn: z.number().int().positive().optional(), duringTurn: z.boolean().optional() }),
  /** `reasoning`: what the model thought before this answer (the chat shows it collapsed). */
  z.object({ role: z.literal('assistant'), text: z.string(), reasoning: z.string().optional() }),
  z.object({
    role: z.literal('tool'),
    callId: z.string(),
    tool: z.string(),
    /** The arguments as the model sent them (a JSON string, possibly malformed). */
    args: z.string(),
    /** The card's heading, as the live `tool.call` event had it (the tool's name for calls stored before titles were). */
    title: z.string(),
    /** The card's line: the first line of the result, or while the call has not finished what `tool.call` carried. */
    summary: z.string(),
    /** The result as the model saw it. Absent while the call has not finished. */
    result: z.string().optional(),
    /** Absent while the call has not finished. */
    ok: z.boolean().optional(),
    errorCode: z.string().optional(),
  }),
  /** Deferred tools a call loaded (tool_search, or a direct call that loaded itself): the chip after that call's card. */
  z.object({ role: z.literal('tools.loaded'), tools: z.array(z.string()).min(1) }),
  /** A compaction where it happened: the chat's divider (`summary` is '' for the fallback, which dropped the rounds). */
  z.object({
    role: z.literal('compaction'),
    trigger: z.enum(['auto', 'manual', 'overflow', 'fallback']),
    tokensBefore: z.number().int().nonnegative(),
    tokensAfter: z.number().int().nonnegative(),
    rounds: z.number().int().nonnegative(),
    summary: z.string(),
    focus: z.string().optional(),
  }),
]);

/** One file a turn's auto-approved edits changed: its path as shown, line counts against the turn's start, created by the agent. */
/** One hunk of a changed file as the list shows it: where it starts now (1-based), its lines (shortened past a limit, `cut` says by how many). */
export const changedHunkSchema = z.object({
  key: z.string(),
  line: z.number().int().positive(),
  removed: z.array(z.string()),
  added: z.array(z.string()),
  cut: z.number().int().nonnegative(),
});
export const changedFileSchema = z.object({
  path: z.string(),
  added: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
  created: z.boolean(),
  /** Its hunks, to keep or undo one at a time; absent for a file the agent created or one too large to split. */
  hunks: z.array(changedHunkSchema).optional(),
});

/** What the chat's header and notices show of a session and the window: `init` carries it, `header` updates it. */
const headerFields = {
  sessionId: z.string(),
  title: z.string(),
  model: z.string(),
  workspaceTrusted: z.boolean(),
  /** No usable model endpoint yet: the webview shows a setup card instead of failing on send. */
  setupNeeded: z.boolean(),
  /** The model accepts images; false: attached images go to it as a text marker. Absent: assume it does. */
  supportsImages: z.boolean().optional(),
  /** The chat's mode: the session's, or (no session yet) the one its first message starts in. Absent: code. */
  mode: z.enum(sessionModes).optional(),
  /** The model.name setting: what the picker's "default" means (`model` differs when the session picked another). */
  defaultModel: z.string().optional(),
  /** The session's model takes a reasoning effort: the composer's effort control. Absent: it has none. */
  effort: effortInfoSchema.optional(),
  /** The custom agent the chat runs as (`/agent NAME`); absent: Snowpea's own. */
  agent: z.string().min(1).max(200).optional(),
};

/** A slash command from a prompt file, for the composer's slash menu (its text stays in the host). */
export const slashCommandSchema = z.object({
  name: z.string().min(1).max(64),
  description: z.string().max(300).optional(),
  /** What to type after the name (`[file] [focus]`). */
  argumentHint: z.string().max(200).optional(),
  /** Where it is from: `.github/prompts/review.prompt.md`. */
  origin: z.string().max(1000),
});

/** Most commands one `commands` message carries. */
export const MAX_SLASH_COMMANDS = 500;

/** A custom agent the chat can run as (`/agent NAME`), for the slash menu. */
export const agentChoiceSchema = z.object({
  name: z.string().min(1).max(200),
  description: z.string().max(300).optional(),
});

/** Most agents one `commands` message carries. */
export const MAX_AGENT_CHOICES = 100;

export const hostMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('init'),
    ...headerFields,
    /** Tools loaded in this session (eager plus deferred ones loaded so far). */
    loadedTools: z.array(z.string()),
    /** A turn is in progress (the webview reloaded mid-stream); events for it follow. */
    running: z.boolean().optional(),
    /** The session's todo list as stored (todo_write). */
    todos: todoListSchema.optional(),
  }),
  /** The title, model, trust, setup or image support changed (a setting, the API key, Workspace Trust, the session's title); nothing else is touched. */
  z.object({ type: z.literal('header'), ...headerFields }),
  z.object({ type: z.literal('event'), event: agentEventMessageSchema }),
  z.object({ type: z.literal('transcript'), sessionId: z.string(), entries: z.array(transcriptEntrySchema) }),
  z.object({
    type: z.literal('approval.request'),
    id: z.string(),
    tool: z.string(),
    summary: z.string(),
    /** Why approval is needed, e.g. a protected path. */
    reason: z.string().optional(),
    /** This request asks every time (a protected path): the webview does not offer "Always allow". */
    alwaysAsk: z.boolean().optional(),
    /** A shell call: "always" allows this command prefix (`npm test`), and the button says so. */
    commandPrefix: z.string().max(200).optional(),
    /** A shell line with no single prefix: no "always" button. */
    noAlways: z.boolean().optional(),
    /** The whole call (pretty-printed arguments), shown in full in a scrollable block. */
    detail: z.string().max(1_000_000).optional(),
    /** A write under review (its diff is open in the editor): the file and its line counts. */
    proposal: z.object({ path: z.string(), added: z.number().int().nonnegative(), removed: z.number().int().nonnegative(), created: z.boolean() }).optional(),
  }),
  /** An approval was answered elsewhere (the diff editor's Accept or Reject, or the diff was closed): its card goes. */
  z.object({ type: z.literal('approval.settled'), id: z.string() }),
  /** Files the turn's auto-approved edits changed, for Keep or Undo (empty: none left to decide). */
  z.object({ type: z.literal('changes.list'), files: z.array(changedFileSchema) }),
  /**
   * The next request would pass a money budget (agent.budget): the turn waits for `budget.reply`.
   * `passes`: each budget it would pass, its limit and what was spent against it; the request's
   * expected cost, prompt tokens and the part expected from the provider's cache.
   */
  z.object({
    type: z.literal('budget.request'),
    id: z.string(),
    model: z.string(),
    cost: z.number().nonnegative(),
    promptTokens: z.number().int().nonnegative(),
    cachedTokens: z.number().int().nonnegative(),
    passes: z.array(z.object({ scope: z.enum(['turn', 'session']), limit: z.number().positive(), spent: z.number().nonnegative() })).min(1).max(2),
  }),
  z.object({ type: z.literal('ask.request'), id: z.string(), question: z.string(), choices: z.array(z.string()).optional() }),
  z.object({ type: z.literal('error'), message: z.string() }),
  /**
   * The messages the user sent while a turn ran, still waiting (after `init`, and whenever they
   * change), in order. `held`: a turn was stopped or failed (or the window reloaded), so none is sent
   * before the user sends one; `delivery`: how a message sent during a turn waits unless picked.
   */
  z.object({
    type: z.literal('queue'),
    sessionId: z.string(),
    items: z.array(z.object({ id: z.string(), text: z.string(), images: z.array(imageMetaSchema).optional(), delivery: z.enum(deliveries) })).max(100),
    held: z.boolean(),
    delivery: z.enum(deliveries),
  }),
  /** A quiet line in the chat: workspace settings Snowpea ignored, a workspace at the home folder. */
  z.object({ type: z.literal('notice'), text: z.string().max(10_000) }),
  meterMessageSchema,
  /** Snowpea: Attach File...: text (an `@path` mention) appended to the composer's draft. */
  z.object({ type: z.literal('composer.insert'), text: z.string().max(10_000) }),
  /**
   * Snowpea: Attach Image...: a picked image joins the composer as a thumbnail, like a pasted one.
   * Without `dataBase64` it is over the 20 MB cap: its thumbnail shows the refusal.
   */
  z.object({
    type: z.literal('composer.attach'),
    name: z.string().min(1).max(500),
    mime: z.string().max(100),
    size: z.number().int().nonnegative(),
    dataBase64: z.string().max(MAX_IMAGE_BASE64_CHARS).optional(),
  }),
  /** The slash commands of the workspace's and the user's prompt files (at start, and when those files or Workspace Trust change). */
  z.object({ type: z.literal('commands'), commands: z.array(slashCommandSchema).max(MAX_SLASH_COMMANDS), agents: z.array(agentChoiceSchema).max(MAX_AGENT_CHOICES).optional() }),
  z.object({
    type: z.literal('files.result'),
    /** The `files.query` query this answers (the webview drops answers to older queries). */
    query: z.string(),
    /** Workspace-relative paths, best match first. */
    paths: z.array(z.string()).max(MAX_FILE_RESULTS),
  }),
  /** Answers `models.list`: the provider's models for the composer's picker. */
  modelsResultSchema,
]);

export type HostMessage = z.infer<typeof hostMessageSchema>;
export type HostMessageType = HostMessage['type'];
export type TranscriptEntry = z.infer<typeof transcriptEntrySchema>;
export type ImageMeta = z.infer<typeof imageMetaSchema>;
export type SlashCommandInfo = z.infer<typeof slashCommandSchema>;
export type AgentChoice = z.infer<typeof agentChoiceSchema>;
export type InitMessage = Extract<HostMessage, { type: 'init' }>;
export type ChangedFile = z.infer<typeof changedFileSchema>;
export type ChangedHunk = z.infer<typeof changedHunkSchema>;
export type BudgetRequestMessage = Extract<HostMessage, { type: 'budget.request' }>;
