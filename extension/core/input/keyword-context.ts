import type { ProblemEntry } from './problems-mention';
import type { TerminalCapture } from './terminal-mention';

/** What only the editor can tell: its diagnostics and its terminals. Absent (the CLI): those keywords say they are not available. */
export interface MentionSources {
  /** Every diagnostic VS Code has now (any severity; the formatter keeps errors and warnings). */
  problems?(): ProblemEntry[] | Promise<ProblemEntry[]>;
  /** The active terminal and its last command's output. */
  terminal?(): TerminalCapture | Promise<TerminalCapture>;
}

export interface KeywordContext {
  workspaceRoot: string;
  sources?: MentionSources;
  /** git reads a repository's config, which can run programs: not in an untrusted workspace. */
  workspaceTrusted: boolean;
  signal?: AbortSignal;
}
