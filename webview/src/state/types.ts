import type { AgentChoice, BudgetRequestMessage, ChangedFile, CostNextEvent, Delivery, Effort, EffortInfoMessage, HostMessage, ImageMeta, Mode, OutgoingImage, SlashCommandInfo, TodoItem } from '../../../extension/protocol';

/** What the chat shows. Everything here can be rebuilt from the host (init + transcript + events). */

export interface UserItem {
  kind: 'user';
  id: string;
  text: string;
  images?: ImageMeta[];
  /** Which of the user's messages it is (from 1): its checkpoint for Restore. Absent until the host confirms it. */
  turn?: number;
  /** Sent from this webview, not yet confirmed by the host's `turn.start`. */
  pending?: boolean;
  /** Sent while a turn ran and read by the model at one of its steps (no turn, no checkpoint of its own). */
  duringTurn?: boolean;
}

/** A message sent while a turn runs, waiting above the composer (the host's `queue`). */
export interface QueuedItem {
  id: string;
  text: string;
  images?: ImageMeta[];
  delivery: Delivery;
}

export interface AssistantItem {
  kind: 'assistant';
  id: string;
  text: string;
  /** What the model thought before answering (`reasoning.delta`s), shown collapsed. */
  reasoning?: string;
  /** Still receiving `text.delta`s. */
  streaming: boolean;
}

export type ToolStatus = 'running' | 'ok' | 'error' | 'stopped';

export interface ToolItem {
  kind: 'tool';
  id: string;
  callId: string;
  tool: string;
  /** Arguments as the model sent them (a JSON string, possibly malformed). */
  args: string;
  /** The card's heading, computed in core (`tool.call`, replay); absent in a state saved before titles were (the tool's name shows). */
  title?: string;
  status: ToolStatus;
  /** The card's line, computed in core: while running what `tool.call` carried, once finished the result's first line. */
  summary?: string;
  errorCode?: string;
  /** The tail of streamed output while running (capped). */
  output: string;
  /** The result as the model saw it (from a transcript replay, or `tool.result` when the host adds it). */
  result?: string;
  /**
   * Pruned: the stub later requests carry instead of the result (the host's `meter` names the
   * calls). Once pruned, a result stays pruned; `result` keeps the full text.
   */
  prunedStub?: string;
  /** When this view saw the call start and finish (ms since epoch), for the elapsed time. */
  startedAt?: number;
  endedAt?: number;
  /** The reader opened the card to see arguments and result. */
  expanded?: boolean;
}

export interface ToolsLoadedItem {
  kind: 'tools.loaded';
  id: string;
  tools: string[];
}

export interface ErrorItem {
  kind: 'error';
  id: string;
  message: string;
  errorKind?: string;
  /** An error of the agent's turn (provider, network): the last prompt can be run again. */
  retryable?: boolean;
}

/** A quiet line in the transcript, e.g. "Stopped." at a cancelled turn's end. */
export interface NoticeItem {
  kind: 'notice';
  id: string;
  text: string;
}

/** The divider where the conversation was compacted; it opens to the summary later requests carry. */
export interface CompactionItem {
  kind: 'compaction';
  id: string;
  trigger: 'auto' | 'manual' | 'overflow' | 'fallback';
  tokensBefore: number;
  tokensAfter: number;
  /** Model rounds the summary stands for. */
  rounds: number;
  /** '' for the fallback, which dropped the oldest rounds instead. */
  summary: string;
  focus?: string;
  /** Why the summary failed (the live event of a fallback only; the stored session does not keep it). */
  failure?: string;
  expanded?: boolean;
}

export type TranscriptItem = UserItem | AssistantItem | ToolItem | ToolsLoadedItem | ErrorItem | NoticeItem | CompactionItem;
export type TranscriptItemKind = TranscriptItem['kind'];

export interface SessionInfo {
  id: string;
  title: string;
  model: string;
  workspaceTrusted: boolean;
  setupNeeded: boolean;
  /** The model accepts images (absent in init: assumed). */
  supportsImages: boolean;
  /** The model.name setting (the picker's default); `model` differs when the session picked another. */
  defaultModel?: string;
  /** The model's reasoning-effort control; absent: it has none. */
  effort?: EffortInfoMessage;
  /** The custom agent the chat runs as (`/agent NAME`); absent: Snowpea's own. */
  agent?: string;
}

/** The composer's model picker list: asked for when it opens. */
export type ModelList = { status: 'loading' } | { status: 'done'; models: string[]; error?: string };

export interface ApprovalRequest {
  id: string;
  tool: string;
  summary: string;
  reason?: string;
  alwaysAsk?: boolean;
  /** A shell call's "always" allows this prefix; the button names it. */
  commandPrefix?: string;
  /** No "always" button (a shell line with no single prefix). */
  noAlways?: boolean;
  /** The whole call (full arguments), when the summary is shorter. */
  detail?: string;
  /** A write under review in the editor's diff: the file and its line counts. */
  proposal?: { path: string; added: number; removed: number; created: boolean };
}

export interface AskRequest {
  id: string;
  question: string;
  choices?: string[];
}

/** A budget pause: the next request would pass agent.budget; the turn waits for continue once, raise or stop. */
export type BudgetRequest = Omit<BudgetRequestMessage, 'type'>;

/** The next request's expected cost and cache hit (`cost.next`), with what the turn and the session spent against their budgets. */
export type NextCost = Omit<CostNextEvent, 'type' | 'sessionId'>;

/** An image in the composer, before it is sent. */
export type Attachment = {
  id: string;
  /** The file's name as pasted/dropped/picked. */
  name: string;
  /** Bytes of the original file. */
  size: number;
} & (
  | { status: 'processing' }
  | { status: 'error'; error: string }
  | {
      status: 'ready';
      /** What travels: possibly downscaled and re-encoded. */
      image: OutgoingImage;
      /** Dimensions of the original, when the image was downscaled. */
      original?: { width: number; height: number };
    }
);

/** The context meter of one round: token counts from `usage`, savings from the host's `meter`. */
export interface RoundMeter {
  round: number;
  promptTokens: number;
  cachedTokens: number;
  completionTokens?: number;
  /** Of the output tokens, those spent reasoning (when the provider says). */
  reasoningTokens?: number;
  /** Optional request parts the endpoint refused (prompt_cache_key, say): requests there go without them. */
  dropped?: string[];
  /** Counted with the model's tokenizer (the editor's language models report no usage). */
  estimated?: boolean;
  contextWindow?: number;
  /** Estimated input tokens above which a request compacts the conversation first. */
  compactAtTokens?: number;
  prunedChars?: number;
  prunedResults?: number;
  deferredTools?: number;
  deferredTokens?: number;
  /** Estimated US dollars (the host's meter; absent when the model's prices are unknown). */
  cost?: { cached: number; uncached: number; output: number; round: number; session: number; sessionEverything: number };
}

export const STATE_VERSION = 1;

export interface ChatState {
  version: typeof STATE_VERSION;
  session: SessionInfo | null;
  /** The Restricted Mode notice was closed (the header's shield opens it again; trusting the folder resets it). */
  restrictedDismissed?: boolean;
  items: TranscriptItem[];
  /** A turn is in progress (shows Stop instead of Send). */
  running: boolean;
  /** Stop was pressed; waiting for `turn.end`. */
  stopping: boolean;
  loadedTools: string[];
  loop: { tool: string; count: number } | null;
  retry: { attempt: number; delayMs: number; reason: string } | null;
  /** Context meters of the session's latest rounds, oldest first (capped). */
  meters: RoundMeter[];
  approvals: ApprovalRequest[];
  asks: AskRequest[];
  /** Budget pauses waiting for an answer. */
  budgets: BudgetRequest[];
  /** The latest request's expected cost, told before it was sent (the meter shows it until its round is measured). */
  nextCost: NextCost | null;
  /** Files the last turn's auto-approved edits changed, waiting for Keep or Undo. */
  changes: ChangedFile[];
  /** The composer's text, kept so it survives hide/show. */
  draft: string;
  /** Images in the composer, in the order they were added. */
  attachments: Attachment[];
  /** The latest answer to `files.query` (the `@` popup). */
  fileResults: { query: string; paths: string[] } | null;
  /** The provider's models for the picker (null: not asked yet in this view). */
  models: ModelList | null;
  /** Retry was pressed: the host's next turn.start repeats the last prompt, which is shown already. */
  retrying: boolean;
  /** Source of item ids. */
  nextId: number;
  /** The session's mode (the plan toggle shows plan). */
  mode: Mode;
  /** The model's todo list (todo_write), pinned above the composer while a turn runs. */
  todos: TodoItem[];
  /** A plan-mode turn finished: the chat offers "Approve plan". */
  planReady: boolean;
  /** The pinned todo list is folded to its one-line summary. */
  todosCollapsed: boolean;
  /** Messages sent during a turn, waiting (the host's `queue`), in order. */
  queue: QueuedItem[];
  /** The waiting messages wait for the user (a turn was stopped or failed): none is sent before one is sent by hand. */
  queueHeld: boolean;
  /** How a message sent during a turn waits unless the user switches it (the chat.messagesDuringTurn setting). */
  queueDelivery: Delivery;
  /** Slash commands from the workspace's and the user's prompt files (the host's `commands`), for the slash menu. */
  commands: SlashCommandInfo[];
  /** Custom agents the chat can run as (the host's `commands`), for the slash menu's `/agent NAME` rows. */
  agents: AgentChoice[];
}

/** Things the webview does on its own, before or without the host. */
export type LocalAction =
  | { type: 'draft.set'; text: string }
  | { type: 'restricted.notice'; shown: boolean }
  | { type: 'message.sent'; text: string; images?: ImageMeta[] }
  /** Sent while a turn runs: the draft goes to the host's queue (which the host's `queue` shows). */
  | { type: 'message.queued' }
  | { type: 'stop.requested' }
  | { type: 'retry.requested' }
  | { type: 'tool.toggle'; id: string }
  | { type: 'compaction.toggle'; id: string }
  | { type: 'attachment.add'; id: string; name: string; size: number }
  | { type: 'attachment.done'; id: string; result: Exclude<Attachment, { status: 'processing' }> }
  | { type: 'attachment.remove'; id: string }
  | { type: 'loop.dismissed' }
  | { type: 'mode.requested'; mode: Mode }
  | { type: 'todos.toggle' }
  | { type: 'models.requested' }
  | { type: 'model.requested'; model: string | null }
  | { type: 'effort.requested'; effort: Effort | null }
  | { type: 'approval.answered'; id: string }
  | { type: 'ask.answered'; id: string }
  | { type: 'budget.answered'; id: string };

/** `at`: when the message arrived (ms since epoch), for elapsed times; the reducer stays pure. */
export type ChatAction = { type: 'host'; msg: HostMessage; at?: number } | LocalAction;
