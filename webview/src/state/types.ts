import type { HostMessage, ImageMeta, UsageMessage } from '../../../extension/protocol';

/** What the chat shows. Everything here can be rebuilt from the host (init + transcript + events). */

export interface UserItem {
  kind: 'user';
  id: string;
  text: string;
  images?: ImageMeta[];
  /** Sent from this webview, not yet confirmed by the host's `turn.start`. */
  pending?: boolean;
}

export interface AssistantItem {
  kind: 'assistant';
  id: string;
  text: string;
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
  status: ToolStatus;
  /** The tool's one-line summary, once it has finished. */
  summary?: string;
  errorCode?: string;
  /** The tail of streamed output while running (capped). */
  output: string;
  /** The result as the model saw it (from a transcript replay). */
  result?: string;
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
}

/** A quiet line in the transcript, e.g. "Stopped." at a cancelled turn's end. */
export interface NoticeItem {
  kind: 'notice';
  id: string;
  text: string;
}

export type TranscriptItem = UserItem | AssistantItem | ToolItem | ToolsLoadedItem | ErrorItem | NoticeItem;
export type TranscriptItemKind = TranscriptItem['kind'];

export interface SessionInfo {
  id: string;
  title: string;
  model: string;
  workspaceTrusted: boolean;
  setupNeeded: boolean;
}

export interface ApprovalRequest {
  id: string;
  tool: string;
  summary: string;
  reason?: string;
}

export interface AskRequest {
  id: string;
  question: string;
  choices?: string[];
}

export const STATE_VERSION = 1;

export interface ChatState {
  version: typeof STATE_VERSION;
  session: SessionInfo | null;
  items: TranscriptItem[];
  /** A turn is in progress (shows Stop instead of Send). */
  running: boolean;
  /** Stop was pressed; waiting for `turn.end`. */
  stopping: boolean;
  loadedTools: string[];
  loop: { tool: string; count: number } | null;
  retry: { attempt: number; delayMs: number; reason: string } | null;
  usage: (UsageMessage & { round: number }) | null;
  approvals: ApprovalRequest[];
  asks: AskRequest[];
  /** The composer's text, kept so it survives hide/show. */
  draft: string;
  /** Source of item ids. */
  nextId: number;
}

/** Things the webview does on its own, before or without the host. */
export type LocalAction =
  | { type: 'draft.set'; text: string }
  | { type: 'message.sent'; text: string; images?: ImageMeta[] }
  | { type: 'stop.requested' }
  | { type: 'loop.dismissed' }
  | { type: 'approval.answered'; id: string }
  | { type: 'ask.answered'; id: string };

export type ChatAction = { type: 'host'; msg: HostMessage } | LocalAction;
