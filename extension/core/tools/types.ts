import type { z } from 'zod';
import type { ContentPart, ImageRef } from '../conversation/messages';
import type { TodoItem } from '../conversation/events';
import type { Mode } from '../conversation/session';
import type { ToolName } from './names';
import type { Settings } from '../settings/schema';
import type { ProblemWatch } from './problems-introduced';

/** Permission tags, shown to the user and used by the approver. */
export type Permission = 'read' | 'write' | 'exec' | 'network' | 'interact' | 'agent';

export type ToolErrorCode =
  | 'repeat_blocked'
  | 'policy_blocked'
  | 'not_found'
  | 'invalid_arguments'
  | 'vision_unsupported'
  | 'timeout'
  | 'cancelled'
  | 'denied'
  | 'binary_file'
  | 'too_large'
  | 'mode_blocked'
  | 'unknown_tool'
  | 'failed'
  /** edit_file: old_string was not found / found several times without replace_all. */
  | 'no_match'
  | 'multiple_matches'
  /** A capability the tool needs is absent here (ask_user in a child session or a non-interactive CLI). */
  | 'unavailable'
  /** The call was never run: the model's answer was cut (output limit, content filter) before it was known to be complete. */
  | 'not_run';

export interface ToolError {
  code: ToolErrorCode;
  message: string;
}

/** What a tool returns. `content` is what the model reads; images ride separately and never as base64 in text. */
export interface ToolResult {
  ok: boolean;
  content: string;
  error?: ToolError;
  /** Images to attach to the conversation after this round (view_image, screenshots, MCP images). */
  images?: ImageRef[];
  /** read_file: the content hash of what was read (editor text when open), for the repeat guard. */
  sha256?: string;
  /** read_file: the resolved real path and the number of lines of the whole file. */
  realPath?: string;
  totalLines?: number;
  /** Real paths this call wrote (write_file, edit_file), so the repeat guard can forget their reads. */
  writtenPaths?: string[];
  /** The deferred tools this call loaded, in load order (set by the runtime; the loop keeps it on the tool message). */
  loadedTools?: string[];
}

export function okResult(content: string, extra: Partial<ToolResult> = {}): ToolResult {
  return { ok: true, content, ...extra };
}

/** The model sees the code verbatim in the text, so it can react to it. */
export function errorResult(code: ToolErrorCode, message: string): ToolResult {
  return { ok: false, content: `error (${code}): ${message}`, error: { code, message } };
}

/** What a file read returns: the editor's text when the file is open there (unsaved edits included), else the disk's. */
export interface FileReadResult {
  bytes: Uint8Array;
  /** sha256 hex of the bytes returned. */
  sha256: string;
  fromEditor: boolean;
}

export interface FileReader {
  read(absPath: string, signal?: AbortSignal): Promise<FileReadResult>;
}

export interface ApprovalRequest {
  tool: string;
  permission: Permission;
  /** One line describing what will happen ("run: npm test", "write src/a.ts"). */
  summary: string;
  /** Why this always asks (protected path, outside the workspace), if it does. */
  reason?: string;
  /** True when no setting, earlier "always" answer or --yes skips this request. */
  alwaysAsk: boolean;
  /** The whole call (pretty-printed arguments of exec and network tools) when the summary is shorter: shown in full, never cut. */
  detail?: string;
  /** The file change the call would make (write_file, edit_file), for the user to review and edit before it lands. */
  proposal?: WriteProposal;
  /** The command prefix an "always" answer allows from now on (`npm test`), for a shell call; "always" covers nothing else then. */
  commandPrefix?: string;
  /** A shell line with no single prefix (a chain, a substitution): "always" is not offered. */
  noAlways?: boolean;
}

/** A file write shown to the user before it lands: the file's text now and as the call would leave it. */
export interface WriteProposal {
  /** The file's real path. */
  path: string;
  /** The path as the user reads it (workspace-relative inside the workspace). */
  display: string;
  /** The text now: the open document's (unsaved edits included) or the disk's; '' for a new file. */
  current: string;
  proposed: string;
  /** The file does not exist yet. */
  created: boolean;
}

/** An answer to a request with a proposal: the decision and, when the user accepted it, the text as they left it (they may have changed it). */
export interface ApprovalAnswer {
  decision: ApprovalDecision;
  text?: string;
}

/** What a call whose proposal the user accepted writes: their text, and the proposal they were shown. */
export interface ReviewedWrite {
  proposal: WriteProposal;
  text: string;
}

/** The user's answer: once, always for this tool (window or run; ignored for requests that always ask), or no. */
export type ApprovalDecision = 'allow' | 'allowAlways' | 'deny';

/** What the user already said about approvals, for one agent (a window or a CLI run); policy/memory.ts holds it. */
export interface ApprovalState {
  /** Tools the user answered "always" for. */
  readonly always: Set<string>;
  /** Command prefixes the user answered "always allow" for (a shell card's offer), this window or run. */
  readonly commandAllow?: Set<string>;
  /** Records a shell card's "always allow <prefix>" (added to commandAllow, and kept where the front end keeps such rules). */
  allowCommand?(prefix: string): void;
  /** Ordinary requests approved up front (CLI --yes). */
  readonly preapproved: boolean;
  /** Who set approvals.autoApprove. */
  readonly autoApproveFrom: 'default' | 'user' | 'workspace';
}

export interface Approver {
  /** A request with a proposal may be answered with the text the user accepted (ApprovalAnswer). */
  approve(req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision | ApprovalAnswer>;
}

/** Writes a file; the VS Code host may route it through the open document. Default: the disk. */
export interface FileWriter {
  /**
   * `reviewed`: the user accepted this exact text in a review (the host lists only unreviewed edits for Keep/Undo).
   * `created`: the file is to be created; the write fails when anything (a file, a link) is at the name now.
   * A write never follows a symbolic link at the name (the caller passes the real path).
   */
  write(absPath: string, bytes: Uint8Array, signal?: AbortSignal, opts?: { reviewed?: boolean; created?: boolean }): Promise<void>;
}

/** Session modes (the one Mode type, conversation/session.ts): `code` runs every tool; `plan` and `ask` are read-only. */
export type { Mode };

export interface SessionInfo {
  id: string;
  mode: Mode;
  role: string;
  isSubagent: boolean;
  /** A session running as a custom agent: its name and the tools its file allows or takes away (they only narrow). */
  customAgent?: { name: string; tools?: readonly string[]; deniedTools?: readonly string[] };
}

export interface ToolContext {
  workspaceRoot: string;
  fileReader: FileReader;
  approver: Approver;
  signal: AbortSignal;
  settings: Settings;
  session: SessionInfo;
  /** Streams partial output (shell) to the UI; the model sees only the final result. */
  onOutput?(chunk: string): void;
  /** Where a tool may keep files for this session (full shell outputs, attachments). */
  scratchDir: string;
  /** Writes go through this when given (editor-aware in VS Code); otherwise straight to disk. */
  fileWriter?: FileWriter;
  /** Asks the user a question and resolves with the answer; absent in child sessions and non-interactive runs. */
  askUser?(question: string, choices: string[] | undefined, signal: AbortSignal): Promise<string>;
  /** Changes the session's mode (set_mode); absent where the mode cannot change. */
  setMode?(mode: Mode): void | Promise<void>;
  /** Replaces the session's todo list (todo_write): stored with the session and shown to the user; absent where there is none (subagents). */
  setTodos?(todos: TodoItem[]): void;
  /** Adds deferred tools to the session's loaded set (tool_search); returns the names that were new. */
  loadTools?(names: string[]): string[];
  /** Earlier answers and up-front approval; absent: none. */
  approvals?: ApprovalState;
  /** VS Code Workspace Trust: false runs read tools only. Undefined counts as trusted. */
  workspaceTrusted?: boolean;
  /**
   * The text the user typed in this session's conversation (their prompts and answers, not the model's or tools'),
   * oldest first. The browser URL policy's "typed-only" mode opens loopback and LAN addresses the user typed here.
   */
  userTexts?(): string[];
  /** The attachment store (view_image, screenshots, MCP images); absent where images are not kept. */
  attachments?: ToolAttachments;
  /** The API key for model.baseUrl (media tools call the same endpoint); absent or empty for endpoints that need none. */
  apiKey?(): string | undefined | Promise<string | undefined>;
  /** VS Code: the file's diagnostics around a write (problems an edit introduced); absent without language services (CLI) or for files none checks. */
  watchProblems?(absPath: string, signal: AbortSignal): Promise<ProblemWatch | undefined>;
}

/** The attachment store as tools reach it. The add functions throw an ImageError (code + message naming the file). */
export interface ToolAttachments {
  /** Whether the session's model takes images (model.supportsImages or the built-in table). */
  supportsImages: boolean;
  addFile(absPath: string, opts?: { name?: string; source?: string; signal?: AbortSignal }): Promise<ImageRef>;
  addBytes(bytes: Uint8Array, opts: { name: string; mime?: string; source?: string; signal?: AbortSignal }): Promise<ImageRef>;
  addBase64(data: string, opts: { name: string; mime?: string; source?: string; signal?: AbortSignal }): Promise<ImageRef>;
}

/** A path a tool call touches, as the model gave it; `write` decides whether protected-path rules apply. */
export interface ApprovalPath {
  path: string;
  write: boolean;
}

/** What a call touches, declared by the tool so the approval policy can decide without knowing the tool. */
export interface ApprovalScope {
  /** One line for the approval prompt; defaults to describeCall(args). */
  summary?: string;
  paths?: ApprovalPath[];
  /** Ask even though the permission would not (set_mode leaving a read-only mode). */
  ask?: boolean;
  /** Never ask: the call is itself a question to the user (ask_user). */
  skip?: boolean;
  /** The shell command line the call runs (and the folder it runs in), judged by approvals.commandRules. */
  command?: { line: string; cwd?: string };
}

/** What a tool is, declared in its definition; the policy, the repeat guard and the runtime read these, never the tool's name. */
export interface ToolTraits {
  /** Changes nothing (no writes, commands or commits): offered in plan/ask mode and to read-only subagents. */
  readOnly: boolean;
  /** How the repeat guard treats calls: 'file-read' (keyed by the file's content), 'scan' (an identical result is stubbed), 'plain'. */
  repeat: 'file-read' | 'scan' | 'plain';
  /** Offered to subagents (delegating further and asking the user are not). */
  subagents: boolean;
  /** Its result may carry images. */
  images: boolean;
  /**
   * Reads, but runs programs the workspace can configure (git honours `.git/config`: core.fsmonitor,
   * diff drivers, filters), so Restricted Mode refuses it like a write.
   */
  needsTrust?: boolean;
  /**
   * How pruning treats its results in the outgoing request. 'rounds' (the default): stubbed once
   * their tool round is older than agent.keepToolRounds. 'recent-views': instructions the model
   * loaded on purpose (skill bodies), kept whole for the newest skills.protectRecentViews results
   * whatever their round, then replaced by a pointer that names the tool and its call's own
   * arguments to reload it (context/prune.ts, viewPrunedStub; skill_view's names the skill).
   */
  prune?: 'rounds' | 'recent-views';
}

export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  /** A built-in tool's name from the name table (`TOOL.read_file`), or an MCP tool's `mcp__server__tool`: a name outside the table does not compile. */
  name: ToolName;
  traits: ToolTraits;
  /** 'core' for the eager core tools; otherwise the deferred group (browser, git, media, memory, fs, mcp:<server>). */
  group: string;
  permission: Permission;
  /** One line for lists and the tools tree. */
  summary: string;
  /** What the model reads in the tool schema. */
  description: string;
  input: S;
  /**
   * A JSON Schema sent to the model as is instead of the one derived from `input` (MCP tools pass
   * their server's schema through; `input` then validates against it).
   */
  jsonSchema?: Record<string, unknown>;
  /**
   * false: eager, sent every round (the built-in tools with false are the eager set of docs/design.md; no
   * other list exists); true: deferred, loaded on demand through tool_search.
   */
  deferred: boolean;
  /**
   * The call in a few words ("read src/a.ts", "run: npm test"), from the parsed arguments: it heads
   * the tool card (the tool.call event's `title`, kept with the stored call; card-summary.ts puts it
   * on one line and cuts it at 160 characters) and is the approval prompt's line when `approval`
   * gives no summary. Without it, or when the arguments do not parse, the card shows the tool's name.
   */
  describeCall?(args: z.infer<S>): string;
  /** Declares the paths and summary the approval policy judges; without it only the permission counts. */
  approval?(args: z.infer<S>, ctx: ToolContext): ApprovalScope;
  /**
   * The change the call would make, shown to the user when the policy asks (never otherwise). A
   * ToolResult instead ends the call without asking: it would fail or change nothing.
   */
  propose?(args: z.infer<S>, ctx: ToolContext): Promise<WriteProposal | ToolResult>;
  /** `reviewed`: the user accepted the call's proposal, possibly changed; the tool writes exactly that text. */
  run(args: z.infer<S>, ctx: ToolContext, reviewed?: ReviewedWrite): Promise<ToolResult>;
}

export function defineTool<S extends z.ZodType>(t: ToolDefinition<S>): ToolDefinition<S> {
  return t;
}

export type AnyTool = ToolDefinition<z.ZodType>;

export type { ContentPart };
