/**
 * The stdio transport for MCP servers: the SDK's framing (ReadBuffer, serializeMessage) over a
 * child started in its own process group, so closing it kills the whole tree (an `npx` wrapper
 * and the node server under it), not just the direct child. Keeps the tail of stderr and the
 * exit status to explain a crash.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { killTree } from '../tools/exec/kill-tree';

const STDERR_TAIL_CHARS = 2000;

export interface StdioParams {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** Told the process id as soon as the process exists. */
  onSpawn?(pid: number): void;
}

export class ProcessStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child?: ChildProcess;
  private readonly buffer = new ReadBuffer();
  private stderr = '';
  private exit?: { code: number | null; signal: NodeJS.Signals | null };
  private closing = false;
  private closed = false;

  constructor(private readonly params: StdioParams) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The last lines the server wrote to stderr. */
  stderrTail(): string {
    return this.stderr.trim();
  }

  /** "exit code 1" / "signal SIGKILL" once the process has ended on its own. */
  exitDescription(): string | undefined {
    if (!this.exit) return undefined;
    return this.exit.signal ? `signal ${this.exit.signal}` : `exit code ${this.exit.code}`;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('already started');
    return new Promise((resolve, reject) => {
      const child = spawn(this.params.command, this.params.args, {
        cwd: this.params.cwd,
        env: this.params.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
      this.child = child;
      child.once('error', (e: NodeJS.ErrnoException) => {
        const msg = e.code === 'ENOENT' ? `"${this.params.command}" was not found (is it installed and on PATH?)` : `"${this.params.command}" could not be started (${e.message})`;
        const err = new Error(msg);
        reject(err);
        this.onerror?.(err);
        this.finish();
      });
      child.once('spawn', () => {
        if (child.pid !== undefined) this.params.onSpawn?.(child.pid);
        resolve();
      });
      child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        // A grandchild may hold stdout open after the server exits: the exit itself ends the connection.
        setTimeout(() => this.finish(), 50).unref?.();
      });
      child.stdout!.on('data', (chunk: Buffer) => {
        this.buffer.append(chunk);
        for (;;) {
          let msg: JSONRPCMessage | null;
          try {
            msg = this.buffer.readMessage();
          } catch (e) {
            this.onerror?.(e as Error);
            continue;
          }
          if (!msg) break;
          this.onmessage?.(msg);
        }
      });
      child.stderr!.on('data', (chunk: Buffer) => {
        this.stderr = (this.stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
      });
      child.stdin!.on('error', (e) => this.onerror?.(e));
      child.stdout!.on('error', (e) => this.onerror?.(e));
      child.on('close', () => this.finish());
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || this.closed || !stdin.writable) return reject(new Error('the server process is not running'));
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', () => resolve());
    });
  }

  /** Kills the process tree (SIGTERM, then SIGKILL after the grace period). */
  async close(graceMs = 1500): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    const pid = this.child?.pid;
    // Also after the server exited on its own: what it started may still run in its group.
    if (pid !== undefined) await killTree(pid, graceMs);
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer.clear();
    this.child?.stdin?.destroy();
    this.child?.stdout?.destroy();
    this.child?.stderr?.destroy();
    this.onclose?.();
  }
}
