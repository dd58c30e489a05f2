/**
 * How long state.db's round-end commit blocks the event loop with ~40 MB of stored history, next to
 * the naive alternative measured in the same run: the same history held whole in one sql.js
 * database, export()ed and written with writeFileSync at each round end.
 * Run alone: npx tsx bench/store-flush.ts
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Database } from 'sql.js';
import type { Message } from '../extension/core/conversation/messages';
import { loadSqlJs, openStateDb, type StateDb } from '../extension/core/store';

export interface StoreFlushResult {
  /** Stored history: state.db plus the content files beside it. */
  historyMB: number;
  /** Of that, state.db itself (what a fold exports and writes). */
  dbMB: number;
  /** Time commitRound() holds the event loop, per round (the disk write then runs off the loop). */
  commitRoundBlockMs: { median: number; p95: number };
  /** Time until commitRound()'s promise resolved, i.e. the round is on disk (not blocking). */
  commitRoundDurableMs: { median: number; p95: number };
  /** A fold from start to finish (export, background write, journal trim). */
  foldMs: number;
  /** The part of a fold that blocks the event loop (export()). */
  foldBlockMs: number;
  /** The naive flush: export() plus writeFileSync of the whole history held in sql.js, all blocking. */
  baselineExportWriteMs: number;
  /** Size of that naive database. */
  baselineDbMB: number;
  /** appendMessage() for one round's messages (blocking, paid when the messages arrive). */
  appendRoundMs: { median: number; p95: number };
  roundKB: number;
}

const HISTORY_BYTES = 40 * 1024 * 1024;
const MEASURED_ROUNDS = 40;

/** A small deterministic generator, so every run stores the same history. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const LINE = 'export function parse(input: string): Node { // naïve ✓ 日本語\n';

function roundMessages(n: number, outputBytes: number[]): Message[] {
  const calls = outputBytes.map((_, i) => ({ id: `call_${n}_${i}`, name: i % 2 ? 'grep' : 'read_file', arguments: JSON.stringify({ path: `src/file${n}_${i}.ts` }) }));
  return [
    { role: 'assistant', content: `Looking at part ${n}.`, toolCalls: calls },
    ...outputBytes.map((b, i): Message => ({ role: 'tool', toolCallId: calls[i].id, toolName: calls[i].name, ok: true, content: `// output ${n}.${i}\n` + LINE.repeat(Math.max(1, Math.round(b / LINE.length))) })),
  ];
}

function writeRound(db: StateDb, sessionId: string, round: number, msgs: Message[]): void {
  for (const message of msgs) db.appendMessage(sessionId, { turn: 1 + Math.floor(round / 10), round, message });
  db.recordUsage(sessionId, round, { promptTokens: 20_000 + round, completionTokens: 300, cachedTokens: 18_000 });
  db.recordEvent(sessionId, { type: 'round.start', sessionId, round });
}

function stats(xs: number[]): { median: number; p95: number } {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  const r = (x: number) => Math.round(x * 100) / 100;
  return { median: r(at(0.5)), p95: r(at(0.95)) };
}

/** Fills the store with about 40 MB of tool rounds through the public API, and the naive database alike. */
async function buildHistory(db: StateDb, naive: Database): Promise<void> {
  naive.run('CREATE TABLE messages (session_id TEXT, seq INTEGER, body TEXT, PRIMARY KEY (session_id, seq))');
  const rand = prng(42);
  let stored = 0;
  let round = 0;
  let session = db.createSession({ title: 'history 0', workspaceRoot: '/bench', mode: 'code', role: 'default' });
  while (stored < HISTORY_BYTES) {
    if (round % 60 === 0) session = db.createSession({ title: `history ${round}`, workspaceRoot: '/bench', mode: 'code', role: 'default' });
    // Mostly small outputs, some large ones (a long log, a big file).
    const sizes = [0, 0].map(() => (rand() < 0.1 ? 150_000 + rand() * 350_000 : 1_000 + rand() * 30_000));
    const msgs = roundMessages(++round, sizes);
    writeRound(db, session.id, round, msgs);
    for (const [i, m] of msgs.entries()) naive.run('INSERT INTO messages VALUES (?, ?, ?)', [session.id, round * 10 + i, JSON.stringify(m)]);
    stored += msgs.reduce((n, m) => n + Buffer.byteLength(typeof m.content === 'string' ? m.content : ''), 0);
    await db.commitRound();
  }
}

export async function benchStoreFlush(): Promise<StoreFlushResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snowpea-bench-store-'));
  try {
    const file = path.join(dir, 'state.db');
    // Automatic folds off: the bench decides when a fold runs.
    const db = await openStateDb({ file, idleMs: 0, foldJournalBytes: Infinity });
    const SQL = await loadSqlJs();
    const naive = new SQL.Database();
    await buildHistory(db, naive);
    const f0 = performance.now();
    const folding = db.flush();
    const foldBlockMs = performance.now() - f0;
    await folding;
    const foldMs = performance.now() - f0;
    const dbBytes = fs.statSync(file).size;
    const contentDir = `${file}.content`;
    const historyBytes = dbBytes + fs.readdirSync(contentDir).reduce((n, f) => n + fs.statSync(path.join(contentDir, f)).size, 0);

    const session = db.createSession({ title: 'measured', workspaceRoot: '/bench', mode: 'code', role: 'default' });
    const block: number[] = [];
    const durable: number[] = [];
    const append: number[] = [];
    let roundBytes = 0;
    for (let r = 1; r <= MEASURED_ROUNDS; r++) {
      const msgs = roundMessages(10_000 + r, [2_000, 12_000, 24_000]);
      roundBytes = msgs.reduce((n, m) => n + JSON.stringify(m).length, 0);
      const a0 = performance.now();
      writeRound(db, session.id, r, msgs);
      append.push(performance.now() - a0);
      const t0 = performance.now();
      const done = db.commitRound();
      block.push(performance.now() - t0);
      await done;
      durable.push(performance.now() - t0);
    }
    await db.close();

    // The naive flush of the same history, in the same run.
    const b0 = performance.now();
    fs.writeFileSync(path.join(dir, 'naive.db'), naive.export());
    const baselineExportWriteMs = performance.now() - b0;
    const baselineDbBytes = fs.statSync(path.join(dir, 'naive.db')).size;
    naive.close();

    const r2 = (x: number) => Math.round(x * 100) / 100;
    return {
      historyMB: r2(historyBytes / 1024 / 1024),
      dbMB: r2(dbBytes / 1024 / 1024),
      commitRoundBlockMs: stats(block),
      commitRoundDurableMs: stats(durable),
      foldMs: r2(foldMs),
      foldBlockMs: r2(foldBlockMs),
      baselineExportWriteMs: r2(baselineExportWriteMs),
      baselineDbMB: r2(baselineDbBytes / 1024 / 1024),
      appendRoundMs: stats(append),
      roundKB: r2(roundBytes / 1024),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  benchStoreFlush().then(
    (r) => console.log(JSON.stringify(r, null, 2)),
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
