import type * as vscode from 'vscode';
import type { TerminalCapture } from '../../core/input/mention-keywords';

/**
 * `@terminal`: the output of each terminal's latest command, as VS Code's shell integration reports
 * it (VS Code 1.93 on: `onDidStartTerminalShellExecution`, whose `execution.read()` streams what
 * the command writes from then on). A command's output can only be read from its start, so the
 * recorder listens from activation and keeps, per terminal, its latest command and the last
 * MAX_RECORDED_CHARS of its output; nothing is kept of a closed terminal. Older VS Code (no such
 * API), a shell without integration, or a command run before Snowpea started: `capture` says which.
 */

/** The shell integration API's part this uses (in `vscode` since 1.93; @types/vscode here is 1.90). */
interface ShellExecution {
  readonly commandLine: { readonly value: string };
  readonly cwd?: vscode.Uri;
  read(): AsyncIterable<string>;
}
interface ExecutionStart {
  readonly terminal: vscode.Terminal;
  readonly execution: ShellExecution;
}
interface ExecutionEnd extends ExecutionStart {
  readonly exitCode: number | undefined;
}

/** What the recorder needs of `vscode.window`. */
export interface TerminalWindow {
  readonly activeTerminal: vscode.Terminal | undefined;
  onDidCloseTerminal: vscode.Event<vscode.Terminal>;
  onDidStartTerminalShellExecution?: vscode.Event<ExecutionStart>;
  onDidEndTerminalShellExecution?: vscode.Event<ExecutionEnd>;
}

/** Output kept per terminal (its tail); a long build log is cut from the front. */
export const MAX_RECORDED_CHARS = 256 * 1024;

interface Recorded {
  execution: ShellExecution;
  command: string;
  cwd?: string;
  output: string;
  dropped: number;
  running: boolean;
  exitCode?: number;
}

export class TerminalRecorder {
  private readonly latest = new Map<vscode.Terminal, Recorded>();
  private readonly subs: vscode.Disposable[] = [];
  /** This VS Code has the shell integration API. */
  readonly supported: boolean;

  constructor(private readonly window: TerminalWindow) {
    const start = window.onDidStartTerminalShellExecution;
    const end = window.onDidEndTerminalShellExecution;
    this.supported = !!start && !!end;
    if (!start || !end) return;
    this.subs.push(
      start((e) => this.started(e)),
      end((e) => this.ended(e)),
      window.onDidCloseTerminal((t) => this.latest.delete(t)),
    );
  }

  private started(e: ExecutionStart): void {
    const rec: Recorded = { execution: e.execution, command: e.execution.commandLine.value, cwd: e.execution.cwd?.fsPath, output: '', dropped: 0, running: true };
    this.latest.set(e.terminal, rec);
    void (async () => {
      for await (const chunk of e.execution.read()) {
        rec.output += chunk;
        if (rec.output.length > MAX_RECORDED_CHARS) {
          const cut = rec.output.length - MAX_RECORDED_CHARS;
          rec.output = rec.output.slice(cut);
          rec.dropped += cut;
        }
      }
    })().catch(() => undefined);
  }

  private ended(e: ExecutionEnd): void {
    const rec = this.latest.get(e.terminal);
    if (rec?.execution !== e.execution) return;
    rec.running = false;
    if (e.exitCode !== undefined) rec.exitCode = e.exitCode;
  }

  /** The active terminal's latest command and output, or why there is none to give. */
  capture(): TerminalCapture {
    const terminal = this.window.activeTerminal;
    if (!terminal) return { status: 'no-terminal' };
    if (!this.supported) return { status: 'no-api' };
    const rec = this.latest.get(terminal);
    if (rec) {
      return { status: 'ok', name: terminal.name, command: rec.command, ...(rec.cwd ? { cwd: rec.cwd } : {}), running: rec.running, ...(rec.exitCode !== undefined ? { exitCode: rec.exitCode } : {}), output: rec.output, ...(rec.dropped ? { droppedChars: rec.dropped } : {}) };
    }
    const integrated = (terminal as vscode.Terminal & { shellIntegration?: unknown }).shellIntegration !== undefined;
    return integrated ? { status: 'no-command', name: terminal.name } : { status: 'no-shell-integration', name: terminal.name };
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.subs.length = 0;
    this.latest.clear();
  }
}
