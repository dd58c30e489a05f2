/**
 * Helpers for the crash tests: the CLI bundle started so a test can SIGKILL it at a chosen
 * point, a seeded PRNG for reproducible random kill points, and what a killed run left in state.db.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import type { Message } from '../../../extension/core/conversation/messages';
import { openStateDb } from '../../../extension/core/store';
import { pairingProblem } from '../../fixtures/scripted-server-strict';
import { root, type Run } from '../cli/run-cli';

/** The CLI bundle running in `cwd` with a private home; `done` resolves at its exit. */
export function startCli(args: string[], opts: { cwd: string; home: string }): { child: ChildProcess; done: Promise<Run> } {
  const child = spawn(process.execPath, [path.join(root, 'dist/cli.js'), ...args], {
    cwd: opts.cwd,
    env: { ...process.env, SNOWPEA_HOME: opts.home, OPENAI_API_KEY: 'sk-fault-test' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const done = new Promise<Run>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

/** mulberry32: a small seeded PRNG, so a failing kill point can be replayed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface StoredRun {
  /** The top-level session, if one was stored. */
  id?: string;
  messages: Message[];
  /** Assistant messages stored: one per completed model round. */
  rounds: number;
  /** What a request built from the stored transcript would break, taken as stored (null: nothing). */
  pairing: ReturnType<typeof pairingProblem>;
}

/** Opens state.db as the next run would (taking over the dead run's lock) and reads the one top-level session. */
export async function readStored(file: string): Promise<StoredRun> {
  const store = await openStateDb({ file, idleMs: 0 });
  try {
    const [top] = store.listSessions();
    const messages = top ? store.getMessages(top.id) : [];
    const raw = messages.map((m) => (m.role === 'tool' ? { role: 'tool', tool_call_id: m.toolCallId } : m.role === 'assistant' ? { role: 'assistant', tool_calls: m.toolCalls } : { role: m.role }));
    // The stored transcript itself, not toWireMessages' repaired copy: a stored orphan counts.
    return { id: top?.id, messages, rounds: messages.filter((m) => m.role === 'assistant').length, pairing: pairingProblem(raw) };
  } finally {
    await store.close();
  }
}
