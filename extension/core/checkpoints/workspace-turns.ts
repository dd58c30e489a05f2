/**
 * Which Snowpea turns edited a workspace, and when (reliability N13). A checkpoint holds the
 * whole workspace, so the files changed since one include what any other process changed: two
 * CLI runs with their own state.db, a VS Code window and a CLI run, or two chats. Each turn
 * records its span in the folder every Snowpea process of the user shares
 * (`<coordination dir>/<workspace hash>.workspace/turns/`, one small JSON file per turn), so a
 * diff stat or a restore can say which other sessions were at work on the files since.
 * Changes made outside Snowpea (an editor, a build) leave no record; the README says so.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { processStart } from '../store/lock-record';
import { momentNow } from './nested';
import { processRuns } from './repo';

const Span = z.object({
  sessionId: z.string().max(200),
  turn: z.number().int().positive(),
  pid: z.number().int().positive(),
  /** The process's start time (Linux), so a pid reused later is not taken for it. */
  pstart: z.string().nullable().optional(),
  /** ms since the epoch. */
  start: z.number(),
  end: z.number().optional(),
});
export type TurnSpan = z.infer<typeof Span>;

/** Spans older than this (ended, or started and never ended) are removed. */
const KEEP_MS = 8 * 24 * 3600 * 1000;
/** Most spans kept per workspace (the newest). */
const MAX_SPANS = 1000;

export class WorkspaceTurns {
  /** The file of each turn this process is in, by session. */
  private readonly open = new Map<string, { file: string; span: TurnSpan }>();

  constructor(
    /** `<coordination dir>/<workspace hash>.workspace/turns`. */
    readonly dir: string,
  ) {}

  /** A turn of `sessionId` starts now (before its checkpoint is taken). */
  begin(sessionId: string, turn: number): void {
    this.end(sessionId);
    const span: TurnSpan = { sessionId, turn, pid: process.pid, pstart: processStart(process.pid), start: momentNow() };
    const file = path.join(this.dir, `${process.pid}-${randomBytes(6).toString('hex')}.json`);
    try {
      fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      this.prune();
      write(file, span);
      this.open.set(sessionId, { file, span });
    } catch {
      // best effort: without it a diff stat cannot name other sessions
    }
  }

  /** The turn of `sessionId` that `begin` started has ended. */
  end(sessionId: string): void {
    const held = this.open.get(sessionId);
    if (!held) return;
    this.open.delete(sessionId);
    try {
      write(held.file, { ...held.span, end: Date.now() });
    } catch {
      // best effort
    }
  }

  /** When turn `turn` of `sessionId` began (its first attempt), if recorded. */
  startOf(sessionId: string, turn: number): number | undefined {
    const starts = this.spans().filter((s) => s.sessionId === sessionId && s.turn === turn).map((s) => s.start);
    return starts.length ? Math.min(...starts) : undefined;
  }

  /**
   * Turns of other sessions that were editing the workspace at some point after `since`: still
   * running, or ended after it. A turn whose process died before it ended counts from its start.
   */
  othersSince(sessionId: string, since: number): TurnSpan[] {
    return this.spans()
      .filter((s) => s.sessionId !== sessionId && (s.end ?? (runs(s) ? Infinity : s.start)) > since)
      .sort((a, b) => a.start - b.start);
  }

  private spans(): TurnSpan[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return [];
    }
    return names.filter((n) => n.endsWith('.json')).flatMap((n) => {
      try {
        const parsed = Span.safeParse(JSON.parse(fs.readFileSync(path.join(this.dir, n), 'utf8')));
        return parsed.success ? [parsed.data] : [];
      } catch {
        return [];
      }
    });
  }

  /** Removes spans past KEEP_MS, and the oldest beyond MAX_SPANS. */
  private prune(): void {
    const now = Date.now();
    const files = fs
      .readdirSync(this.dir)
      .flatMap((n) => {
        const st = fs.statSync(path.join(this.dir, n), { throwIfNoEntry: false });
        return st ? [{ n, t: st.mtimeMs }] : [];
      })
      .sort((a, b) => b.t - a.t);
    files.forEach((f, i) => {
      if (i >= MAX_SPANS || now - f.t > KEEP_MS) fs.rmSync(path.join(this.dir, f.n), { force: true });
    });
  }
}

/** `session 1a2b3c4d (pid 4242, 2 turns)`: other sessions' turns in words, one entry per session. */
export function othersWords(spans: readonly TurnSpan[]): string {
  const bySession = new Map<string, TurnSpan[]>();
  for (const s of spans) bySession.set(s.sessionId, [...(bySession.get(s.sessionId) ?? []), s]);
  return [...bySession.entries()]
    .map(([id, list]) => {
      const pids = [...new Set(list.map((s) => s.pid))].join(', ');
      const live = list.some((s) => s.end === undefined && runs(s));
      return `session ${id} (pid ${pids}${list.length > 1 ? `, ${list.length} turns` : ''}${live ? ', still running' : ''})`;
    })
    .join(', ');
}

/** The span's process still runs (the same process: its start time matches where the platform tells). */
function runs(s: TurnSpan): boolean {
  return processRuns(s.pid) && (s.pstart == null || processStart(s.pid) === s.pstart);
}

function write(file: string, span: TurnSpan): void {
  const tmp = `${file}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(span) + '\n', { mode: 0o600 });
  fs.renameSync(tmp, file);
}
