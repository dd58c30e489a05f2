import type { AttachmentStore } from '../images/store';
import type { Logger } from '../log';
import type { ModelChoice, ModelClient } from '../model/types';
import type { Settings } from '../settings/schema';
import type { ToolRegistry } from '../tools/registry';
import type { ApprovalMemory } from '../tools/policy/memory';
import type { Approver, FileReader, FileWriter, ToolContext } from '../tools/types';
import type { Message } from '../conversation/messages';
import type { Mode, TodoItem } from '../conversation/events';
import type { TranscriptSink } from '../conversation/transcript-sink';
import type { CheckpointSeam } from '../conversation/checkpoint-seam';
import type { Session } from '../conversation/session';
import type { ImageResolver } from '../conversation/wire';
import type { PromptPart } from '../context/system-prompt';
import type { StartingTools } from '../tools/starting-tools';
import type { ComposeInput } from '../input/compose';
import type { MentionSources } from '../input/mention-keywords';
import type { TurnResult } from './loop';
import type { BudgetAsker } from './budget/types';

/** What the agent needs from state.db beyond the transcript sink. */
export interface AgentStore extends TranscriptSink {
  createSession(s: { id?: string; parentId?: string | null; title: string; workspaceRoot: string; mode: Mode; role: string; loadedTools?: string[]; modelChoice?: ModelChoice }): { id: string; created: number };
  getSession(id: string): { id: string; parentId: string | null; title: string; workspaceRoot: string; mode: Mode; role: string; loadedTools: string[]; todos?: TodoItem[]; modelChoice?: ModelChoice; created: number } | null | undefined;
  getMessages(id: string): Message[];
  /** For deleteSession (state.db has both). */
  deleteSession?(id: string): boolean;
  childSessions?(parentId: string): Array<{ id: string }>;
  /** A session's stored token usage per round (the budget prices a resumed session's earlier rounds). */
  getUsage?(id: string): Array<{ prompt: number; completion: number; cached: number }>;
}

/** What `Agent.send` tells its caller before the turn runs. */
export interface SendHooks {
  /** Images and paths that were not attached (one line each, for the user); the rest of the message goes. */
  onProblems?(problems: string[]): void;
  /**
   * At each round boundary: the messages the user sent since, to deliver now (taken: the caller
   * forgets them). They are composed like the turn's own message and appended after the round's results.
   */
  duringTurn?(): Array<{ id: string; input: ComposeInput }>;
}

export interface SendResult extends TurnResult {
  /** The lines onProblems heard. */
  problems: string[];
}

export interface AgentOptions {
  workspaceRoot: string;
  settings: () => Settings;
  client: () => ModelClient;
  registry: ToolRegistry;
  store?: AgentStore;
  fileReader: FileReader;
  fileWriter?: FileWriter;
  approver: Approver;
  askUser?: ToolContext['askUser'];
  logger: Logger;
  /** Per-session scratch folders (full shell outputs, attachments) go under this. */
  scratchRoot: string;
  /** What the user already said about approvals ("always" answers; --yes in the CLI); default: nothing yet. */
  approvals?: ApprovalMemory;
  /** VS Code Workspace Trust, read at each call (trust can be granted mid-session). */
  workspaceTrusted?: () => boolean;
  /** The model endpoint's API key, for tools that call it themselves (media). */
  apiKey?: () => string | undefined | Promise<string | undefined>;
  extraPromptParts?: (session: Session) => PromptPart[];
  imageResolver?: ImageResolver;
  /** Where images are kept (view_image, pasted images, @path, MCP); default: <scratchRoot>/attachments. */
  attachments?: AttachmentStore;
  /** Whether the model takes images; default: modelCapabilities(model.name, settings). */
  supportsImages?: () => boolean;
  /** MCP servers still starting: each turn's first request and a tool_search that finds nothing wait for them. */
  startingTools?: StartingTools;
  /** File checkpoints before each user message (absent: none are kept). */
  checkpoints?: CheckpointSeam;
  /** VS Code: watches an edited file's diagnostics so write_file/edit_file report the problems they introduced. */
  watchProblems?: ToolContext['watchProblems'];
  /** Who answers when the next request would pass agent.budget (the chat's card, the terminal); absent: the turn stops there. */
  askBudget?: BudgetAsker;
  /** VS Code: its diagnostics and terminals for `@problems` and `@terminal` in a prompt (the CLI has none). */
  mentionSources?: MentionSources;
  /**
   * Told of every session released from memory (the chat left it, a subagent finished, it was
   * deleted: Agent.releaseSession, the one release path), to drop what is kept for it outside the
   * agent; the host and the CLI close the session's browser page here.
   */
  onSessionReleased?: (sessionId: string) => void;
}

