import * as fs from 'node:fs';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { isSnowpeaState, realSnowpeaHome } from './snowpea-state';

/** One ignore file's rules and the folder its patterns are relative to. */
interface Layer {
  dir: string;
  ig: Ignore;
}

/** Ignore files this large are not real rule lists; a FIFO or device would block the walk, so only regular files are read. */
const MAX_RULES_BYTES = 1024 * 1024;

function readRules(file: string): string | undefined {
  try {
    const st = fs.statSync(file);
    if (!st.isFile() || st.size > MAX_RULES_BYTES) return undefined;
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function layerFor(dir: string, file = path.join(dir, '.gitignore')): Layer | undefined {
  const rules = readRules(file);
  return rules === undefined ? undefined : { dir, ig: ignore().add(rules) };
}

const toPosix = (p: string) => p.split(path.sep).join('/');
const isUp = (rel: string) => rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);

/**
 * Git's ignore rules for a walk: `.git/info/exclude` and every `.gitignore` from the workspace root down;
 * a deeper file's rule (including a `!` re-include) wins over a shallower one.
 */
export class IgnoreStack {
  private constructor(private readonly layers: Layer[]) {}

  /** Rules in force at `dir`: exclude file and .gitignore files from `root` down to `dir` (both real paths). */
  static at(root: string, dir: string): IgnoreStack {
    const layers: Layer[] = [];
    const exclude = layerFor(root, path.join(root, '.git', 'info', 'exclude'));
    if (exclude) layers.push(exclude);
    const rel = path.relative(root, dir);
    const inside = !isUp(rel);
    const chain = inside ? [root, ...rel.split(path.sep).filter(Boolean).map((_, i, a) => path.join(root, ...a.slice(0, i + 1)))] : [dir];
    for (const d of chain) {
      const l = layerFor(d);
      if (l) layers.push(l);
    }
    return new IgnoreStack(layers);
  }

  /** The stack for a subfolder: this one plus the subfolder's own .gitignore. */
  enter(dir: string): IgnoreStack {
    const l = layerFor(dir);
    return l ? new IgnoreStack([...this.layers, l]) : this;
  }

  ignores(abs: string, isDir: boolean): boolean {
    for (let i = this.layers.length - 1; i >= 0; i--) {
      const { dir, ig } = this.layers[i];
      const rel = path.relative(dir, abs);
      if (!rel || isUp(rel)) continue;
      const r = ig.test(toPosix(rel) + (isDir ? '/' : ''));
      if (r.ignored) return true;
      if (r.unignored) return false;
    }
    return false;
  }
}

export interface WalkOptions {
  /** Workspace (real) root: where ignore rules start. */
  root: string;
  signal?: AbortSignal;
}

/** Byte-wise name order, the order `rg --sort path` uses within a folder. */
const byName = (a: fs.Dirent, b: fs.Dirent) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Yields the files (absolute real paths) under `base` that git would not ignore, folder by folder in name order.
 * Hidden files are included, `.git` folders and symlinks are skipped (as ripgrep does), ignored folders are pruned,
 * and Snowpea's own state is never entered (snowpea-state.ts).
 */
export async function* walkFiles(base: string, o: WalkOptions): AsyncGenerator<string> {
  const st = await fs.promises.stat(base);
  if (!st.isDirectory()) {
    yield base;
    return;
  }
  yield* walkDir(base, IgnoreStack.at(o.root, base), o, realSnowpeaHome());
}

async function* walkDir(dir: string, stack: IgnoreStack, o: WalkOptions, home: string): AsyncGenerator<string> {
  if (o.signal?.aborted) return;
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch {
    return; // unreadable folder: skip it, as rg does
  }
  entries.sort(byName);
  for (const e of entries) {
    const abs = path.join(dir, e.name);
    if (isSnowpeaState(dir, e.name, home)) continue;
    if (e.isDirectory()) {
      if (e.name === '.git' || stack.ignores(abs, true)) continue;
      yield* walkDir(abs, stack.enter(abs), o, home);
    } else if (e.isFile() && !stack.ignores(abs, false)) {
      yield abs;
    }
  }
}
