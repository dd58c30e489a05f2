/**
 * `@terminal`: the active terminal's last command and its output, as VS Code's shell integration
 * saw it (the host records each command's output as it runs). Escape sequences are taken out,
 * overwritten progress lines keep their last state, and the tail is kept: at most
 * MAX_TERMINAL_LINES lines and MAX_TERMINAL_CHARS characters, with a line saying how much went.
 */
import { attr, block, notAvailable, type KeywordResult } from './keyword-parts';

/** What the host found in the active terminal. */
export type TerminalCapture =
  | { status: 'no-terminal' }
  /** This VS Code has no shell integration API for extensions (before 1.93). */
  | { status: 'no-api' }
  /** The terminal's shell does not report its commands (no shell integration): its output cannot be read. */
  | { status: 'no-shell-integration'; name: string }
  /** Shell integration is on, but no command has run in it since Snowpea started. */
  | { status: 'no-command'; name: string }
  | {
      status: 'ok';
      name: string;
      /** The command line as the shell reported it. */
      command: string;
      cwd?: string;
      /** Absent while it runs, or when the shell did not say. */
      exitCode?: number;
      running: boolean;
      /** Raw output, escape sequences included. */
      output: string;
      /** Characters the host's recorder let go before `output` (it keeps a tail). */
      droppedChars?: number;
    };

export const MAX_TERMINAL_LINES = 200;
export const MAX_TERMINAL_CHARS = 20_000;

/* eslint-disable no-control-regex -- escape sequences and control characters are exactly what these take out */
const OSC = /\x1b\][\s\S]*?(?:\x07|\x1b\\|$)/g;
const STRING_SEQ = /\x1b[P^_X][\s\S]*?(?:\x1b\\|$)/g;
const CSI = /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]/g;
const OTHER_ESC = /\x1b[ -/]*[0-~]/g;
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f]/g;
const BACKSPACED = /[^\x08]\x08/;
/* eslint-enable no-control-regex */

/** Terminal output as text: no escape sequences, `\r` overwrites and backspaces applied, no other control characters. */
export function terminalText(raw: string): string {
  const plain = raw.replace(OSC, '').replace(STRING_SEQ, '').replace(CSI, '').replace(OTHER_ESC, '').replace(/\r\n/g, '\n');
  return plain
    .split('\n')
    .map((line) => {
      // A carriage return starts the line again (a progress bar): its last non-empty state stays.
      const states = line.split('\r').filter((x) => x !== '');
      let text = states[states.length - 1] ?? '';
      while (BACKSPACED.test(text)) text = text.replace(BACKSPACED, '');
      return text.replace(CONTROLS, '').trimEnd();
    })
    .join('\n');
}

/** The last `maxLines` lines within `maxChars`, and how many lines were left out. */
export function tail(text: string, maxLines: number, maxChars: number): { text: string; droppedLines: number } {
  const lines = text.split('\n');
  const kept: string[] = [];
  let chars = 0;
  for (let i = lines.length - 1; i >= 0 && kept.length < maxLines; i--) {
    const line = lines[i]!;
    if (chars + line.length + 1 > maxChars) {
      // One very long last line: its end, rather than nothing.
      if (!kept.length) kept.unshift(`…${line.slice(line.length - maxChars + 1)}`);
      break;
    }
    kept.unshift(line);
    chars += line.length + 1;
  }
  return { text: kept.join('\n'), droppedLines: lines.length - kept.length };
}

export function terminalPart(t: TerminalCapture): KeywordResult {
  if (t.status === 'no-terminal') return notAvailable('terminal', 'no terminal is open');
  if (t.status === 'no-api') return notAvailable('terminal', 'this version of VS Code does not let extensions read terminal output (1.93 and later do); paste the output instead');
  const name = attr(t.name);
  if (t.status === 'no-shell-integration') {
    return notAvailable('terminal', `the terminal "${name}" has no shell integration, so its output cannot be read (turn on terminal.integrated.shellIntegration.enabled and open a new terminal, or paste the output)`);
  }
  if (t.status === 'no-command') return notAvailable('terminal', `no command has run in the terminal "${name}" since Snowpea started; run it again, then mention @terminal`);
  const clean = terminalText(t.output).replace(/^\n+|\n+$/g, '');
  const { text, droppedLines } = tail(clean, MAX_TERMINAL_LINES, MAX_TERMINAL_CHARS);
  const attrs = [`name="${name}"`, ...(t.cwd ? [`cwd="${attr(t.cwd)}"`] : []), t.running ? 'running="true"' : t.exitCode !== undefined ? `exit="${t.exitCode}"` : ''].filter(Boolean);
  const earlier = droppedLines || t.droppedChars ? [`[earlier output left out: ${droppedLines ? `${droppedLines} line${droppedLines === 1 ? '' : 's'}` : ''}${droppedLines && t.droppedChars ? ' and ' : ''}${t.droppedChars ? `${t.droppedChars} characters the recorder did not keep` : ''}]`] : [];
  const status = t.running ? '[still running]' : t.exitCode !== undefined ? `[exit code ${t.exitCode}]` : [];
  return block([`<terminal ${attrs.join(' ')}>`, `$ ${t.command.trim()}`, ...earlier, text || '(no output)', ...[status].flat(), '</terminal>'].join('\n'));
}
