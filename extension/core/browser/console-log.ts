/**
 * The page's console errors, warnings and uncaught exceptions, kept for the model: the last
 * 50 are kept, and each is reported once (by the next browser tool result, or browser_console).
 */

export type ConsoleKind = 'error' | 'warning' | 'exception';

export interface ConsoleEntry {
  seq: number;
  kind: ConsoleKind;
  text: string;
}

export const CONSOLE_KEEP = 50;
const MAX_MESSAGE_CHARS = 600;

export interface ConsoleReport {
  entries: ConsoleEntry[];
  /** Messages logged since the last report that fell out of the kept window. */
  dropped: number;
}

export class ConsoleLog {
  private entries: ConsoleEntry[] = [];
  private seq = 0;
  private reportedUpTo = 0;

  add(kind: ConsoleKind, text: string): void {
    const clipped = text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}…` : text;
    this.entries.push({ seq: ++this.seq, kind, text: clipped });
    if (this.entries.length > CONSOLE_KEEP) this.entries.splice(0, this.entries.length - CONSOLE_KEEP);
  }

  /** Every message not reported yet; after this they count as reported. */
  take(): ConsoleReport {
    const fresh = this.entries.filter((e) => e.seq > this.reportedUpTo);
    const first = fresh[0]?.seq ?? this.seq + 1;
    const dropped = Math.max(0, first - this.reportedUpTo - 1);
    this.reportedUpTo = this.seq;
    return { entries: fresh, dropped };
  }
}

/** One line per distinct message, repeats folded into "(×N)". Empty when nothing is new. */
export function formatConsoleReport(r: ConsoleReport): string[] {
  const lines: string[] = [];
  const counts = new Map<string, number>();
  const order: string[] = [];
  for (const e of r.entries) {
    const line = `[${e.kind}] ${e.text}`;
    if (!counts.has(line)) order.push(line);
    counts.set(line, (counts.get(line) ?? 0) + 1);
  }
  if (r.dropped > 0) lines.push(`(${r.dropped} earlier message(s) not kept; only the last ${CONSOLE_KEEP} are)`);
  for (const line of order) {
    const n = counts.get(line)!;
    lines.push(n > 1 ? `${line} (×${n})` : line);
  }
  return lines;
}

/** The block every browser tool result ends with when the page logged errors or warnings since the previous call. */
export function consoleBlock(log: ConsoleLog): string {
  const lines = formatConsoleReport(log.take());
  return lines.length ? `\n\nConsole errors:\n${lines.join('\n')}` : '';
}
