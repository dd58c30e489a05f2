import { randomUUID } from 'node:crypto';
import type { Mode, TodoItem } from './events';
import { isTurnPrompt, type Message } from './messages';
import type { ModelChoice } from '../model/types';

/** Session modes (the one list: sessionModes, events.ts). */
export type { Mode };

/** A custom agent a session runs as (delegate_task with an agent from the workspace's or the user's files, or the chat the user switched to one). */
export interface SessionAgent {
  name: string;
  /** Its instructions as the role part of the system prompt. */
  instructions: string;
  /** Tools it may have (names and `prefix*` patterns); absent: every tool the session may have. */
  tools?: readonly string[];
  /** Tools taken away. */
  deniedTools?: readonly string[];
}

export interface SessionInit {
  id?: string;
  title?: string;
  workspaceRoot: string;
  mode?: Mode;
  role?: string;
  parentId?: string;
  isSubagent?: boolean;
  loadedTools?: string[];
  /** The model's todo list as stored (todo_write). */
  todos?: TodoItem[];
  /** The model and effort the user picked for this session in the chat, as stored. */
  modelChoice?: ModelChoice;
  messages?: Message[];
  /** Subagents: the tool rounds they were given (the BUDGET_LINE). */
  budgetRounds?: number;
  /** A custom agent the session runs as: its instructions and tool limits (`role` is its name). */
  customAgent?: SessionAgent;
  created?: number;
}

/** One conversation: its transcript (every byte, never pruned), mode, role and loaded deferred tools. */
export class Session {
  readonly id: string;
  readonly workspaceRoot: string;
  readonly parentId?: string;
  readonly isSubagent: boolean;
  readonly created: number;
  title: string;
  mode: Mode;
  role: string;
  /** Deferred tools loaded in this session, in load order (their schemas follow the eager ones). */
  readonly loadedTools: string[];
  /** The model's todo list (todo_write replaces it whole); stored with the session. */
  todos: TodoItem[];
  /** The model and effort the user picked for this session ({}: the settings' model.name and model.reasoningEffort); stored with the session. */
  modelChoice: ModelChoice;
  readonly messages: Message[];
  readonly budgetRounds?: number;
  /** A custom agent the session runs as (`role` is its name); a chat's changes with Agent.setAgent. */
  customAgent?: SessionAgent;
  /** Number of user turns so far. */
  turn = 0;
  /** Total model rounds so far (across turns). */
  round = 0;

  constructor(init: SessionInit) {
    this.id = init.id ?? randomUUID();
    this.workspaceRoot = init.workspaceRoot;
    this.parentId = init.parentId;
    this.isSubagent = init.isSubagent ?? !!init.parentId;
    this.created = init.created ?? Date.now();
    this.title = init.title ?? 'New chat';
    this.mode = init.mode ?? 'code';
    this.role = init.role ?? 'default';
    this.loadedTools = [...(init.loadedTools ?? [])];
    this.todos = [...(init.todos ?? [])];
    this.modelChoice = { ...init.modelChoice };
    this.messages = [...(init.messages ?? [])];
    this.budgetRounds = init.budgetRounds;
    this.customAgent = init.customAgent;
    this.turn = this.messages.filter(isTurnPrompt).length;
    this.round = this.messages.filter((m) => m.role === 'assistant').length;
  }

  /** Adds tools to the loaded set; returns the names that were new. */
  loadTools(names: string[]): string[] {
    const added = names.filter((n) => !this.loadedTools.includes(n));
    this.loadedTools.push(...added);
    return added;
  }
}

/** A session's title from the first prompt's text: one line, at most 80 characters ('' when blank). */
export function sessionTitle(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 80);
}
