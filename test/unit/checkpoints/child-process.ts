/** restore-child.ts as a real second process: bundled once with esbuild (a child then starts in a fraction of tsx's time). */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { buildSync } from 'esbuild';

const root = path.resolve(__dirname, '../../..');

/** Bundles restore-child.ts into `outDir`; returns the bundle's path. */
export function bundleChild(outDir: string): string {
  const out = path.join(outDir, 'restore-child.cjs');
  buildSync({ entryPoints: [path.join(__dirname, 'restore-child.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: out, logLevel: 'error' });
  return out;
}

export interface ChildRun {
  child: ChildProcess;
  /** Resolves at the first stdout line that includes `text`. */
  line(text: string): Promise<string>;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }>;
}

/** Starts the bundled child with `args` (see restore-child.ts) and `env` added to this process's. */
export function startChild(bundle: string, args: string[], env: Record<string, string> = {}): ChildRun {
  const child = spawn(process.execPath, [bundle, ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'inherit'] });
  let stdout = '';
  const waiting: Array<{ text: string; resolve: (l: string) => void }> = [];
  child.stdout!.on('data', (d) => {
    stdout += d;
    for (const w of [...waiting]) {
      const l = stdout.split('\n').find((x) => x.includes(w.text));
      if (l !== undefined) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve(l);
      }
    }
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stdout })));
  const line = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const l = stdout.split('\n').find((x) => x.includes(text));
      if (l !== undefined) return resolve(l);
      waiting.push({ text, resolve });
      void done.then(() => reject(new Error(`the child ended without printing "${text}": ${stdout}`)));
    });
  return { child, line, done };
}
