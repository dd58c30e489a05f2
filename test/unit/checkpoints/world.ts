import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { recordingLogger } from '../../fixtures/recording-logger';
import { CheckpointStore } from '../../../extension/core/checkpoints';

export interface World {
  /** The workspace: a real git work tree (its own .git), real path. */
  ws: string;
  /** Snowpea's state folder (the shadow repositories go under <state>/checkpoints). */
  state: string;
  log: ReturnType<typeof recordingLogger>;
  notices: string[];
  limitMB: number;
  /** checkpoints.maxFileMB, maxStoreMB and maxAgeDays. */
  maxFileMB: number;
  maxStoreMB: number;
  maxAgeDays: number;
  enabled: boolean;
  store: CheckpointStore;
}

export const signal = () => new AbortController().signal;

/** A fresh workspace (git init'ed, with a .gitignore) and a store on it, before each test. */
export function checkpointWorld(prefix: string): World {
  const w = {} as World;
  beforeEach(() => {
    w.ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-ws-`)));
    w.state = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-state-`));
    execFileSync('git', ['init', '-q'], { cwd: w.ws });
    w.log = recordingLogger();
    w.notices = [];
    w.limitMB = 200;
    w.maxFileMB = 20;
    w.maxStoreMB = 2000;
    w.maxAgeDays = 7;
    w.enabled = true;
    w.store = newStore(w);
  });
  afterEach(() => {
    fs.rmSync(w.ws, { recursive: true, force: true });
    fs.rmSync(w.state, { recursive: true, force: true });
  });
  return w;
}

export function newStore(w: World, workspaceRoot = w.ws): CheckpointStore {
  return new CheckpointStore({
    workspaceRoot,
    dir: path.join(w.state, 'checkpoints'),
    settings: () => ({
      'checkpoints.enabled': w.enabled,
      'checkpoints.maxWorkspaceMB': w.limitMB,
      'checkpoints.maxFileMB': w.maxFileMB,
      'checkpoints.maxStoreMB': w.maxStoreMB,
      'checkpoints.maxAgeDays': w.maxAgeDays,
    }),
    logger: w.log,
    onNotice: (m) => w.notices.push(m),
  });
}

export function write(ws: string, rel: string, data: string | Buffer): void {
  fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
  fs.writeFileSync(path.join(ws, rel), data);
}

export function read(ws: string, rel: string): Buffer {
  return fs.readFileSync(path.join(ws, rel));
}

export function exists(ws: string, rel: string): boolean {
  return fs.existsSync(path.join(ws, rel));
}
