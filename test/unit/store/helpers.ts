/** Shared bits for the state.db tests: a temporary folder per test and a fake clock. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openStateDb, type StateDb, type StateDbOptions } from '../../../extension/core/store';

export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'snowpea-store-'));
}

/** A clock that moves one millisecond per reading, from a fixed start. */
export function fakeClock(start = 1_700_000_000_000): () => number {
  let t = start;
  return () => t++;
}

/** Opens a store with automatic folds off, so a test decides when things reach the disk. */
export function open(file: string, extra: Partial<StateDbOptions> = {}): Promise<StateDb> {
  return openStateDb({ file, idleMs: 0, foldJournalBytes: Infinity, now: fakeClock(), ...extra });
}

export const newSession = { title: 'Fix the parser', workspaceRoot: '/work/app', mode: 'code', role: 'default' } as const;
