import type { LibraryFormat, LibraryScope } from './sources';

/**
 * A custom agent from another agent's files (or `.snowpea/agents`): delegate_task runs it as a
 * subagent with its instructions. Its tool list only narrows what a subagent has; a model it names
 * is shown, never used.
 */
export interface CustomAgent {
  name: string;
  description: string;
  /** The agent's instructions: the file's body (Roo: roleDefinition and customInstructions). */
  instructions: string;
  /** Tools it may have (names and `prefix*` patterns); absent: every tool a subagent may have. */
  tools?: string[];
  /** Tools taken away (Claude Code's disallowedTools without a tools list). */
  deniedTools?: string[];
  /** Claude Code's maxTurns: a cap on its rounds (delegate_task's max_rounds can only lower it further). */
  maxRounds?: number;
  origin: string;
  file: string;
  scope: LibraryScope;
  format: LibraryFormat;
  /** What of the file Snowpea does not do (a model, permission modes, handoffs), said in the listings. */
  notes: string[];
}
