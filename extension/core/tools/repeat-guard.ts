import { createHash } from 'node:crypto';
import type { AgentEvent } from '../conversation/events';
import type { ToolCall } from '../conversation/messages';
import { SessionStates } from '../conversation/session-states';
import { displayPath } from './paths';
import type { CallGuard } from './runtime';
import { errorResult, type ToolContext, type ToolResult, type ToolTraits } from './types';


const WINDOW = 20;
const LOOP_COUNT = 5;

/** Arguments with keys sorted, so {"a":1,"b":2} and {"b":2,"a":1} are the same call. */
export function canonicalArgs(raw: string): string {
  try {
    return JSON.stringify(sortKeys(JSON.parse(raw)));
  } catch {
    return raw.trim();
  }
}

/** Keys longer than this are kept as their hash: a guard that remembers 20 calls must not hold 20 whole files (reliability N15). */
const KEY_HASH_CHARS = 1024;

/** What the guard remembers of a call: its name and canonical arguments, hashed when long. */
function callKey(call: ToolCall): string {
  const args = canonicalArgs(call.arguments);
  return `${call.name} ${args.length > KEY_HASH_CHARS ? `sha256:${createHash('sha256').update(args).digest('hex')}` : args}`;
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v as object)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

interface ReadRecord {
  sha: string;
  lines: number;
  stubs: number;
  callId: string;
}

interface SessionState {
  reads: Map<string, ReadRecord>;
  lastKey?: string;
  streak: number;
  scans: Map<string, { text: string; same: number }>;
  window: string[];
  loopReported: boolean;
}

export interface RepeatGuardOptions {
  enabled(): boolean;
  /** A tool's traits (repeat: 'file-read' | 'scan' | 'plain'); unknown tools are plain. */
  traitsOf(name: string): Pick<ToolTraits, 'repeat'> | undefined;
  /** Whether the result of an earlier call is still in what the model is sent (not pruned). */
  isResultVisible?(sessionId: string, callId: string): boolean;
  /** Where the per-session reads are kept (the agent's; default: the guard's own). */
  states?: SessionStates;
}

/**
 * The repeat guard (docs/design.md, Repeat guard), three levels:
 * 1. read_file of unchanged content (same real path, offset, limit and hash) returns a stub twice, then refuses;
 * 2. the same call three times in a row warns, a fourth is refused; scanning tools whose output repeats get a stub;
 * 3. five of the same call in the last 20 append a loop warning and emit loop.suspected once per turn.
 */
export class RepeatGuard implements CallGuard {
  private readonly sessions: Map<string, SessionState>;

  constructor(private readonly opts: RepeatGuardOptions) {
    this.sessions = (opts.states ?? new SessionStates()).slice('repeat guard');
  }

  private repeatKind(name: string): ToolTraits['repeat'] {
    return this.opts.traitsOf(name)?.repeat ?? 'plain';
  }

  private state(sessionId: string): SessionState {
    let s = this.sessions.get(sessionId);
    if (!s) {
      s = { reads: new Map(), streak: 0, scans: new Map(), window: [], loopReported: false };
      this.sessions.set(sessionId, s);
    }
    return s;
  }

  beginTurn(sessionId: string): void {
    const s = this.state(sessionId);
    s.lastKey = undefined;
    s.streak = 0;
    s.scans.clear();
    s.window = [];
    s.loopReported = false;
    for (const r of s.reads.values()) r.stubs = 0;
  }

  /** A write or edit through Snowpea, an editor change, or a change on disk: forget what was read there. */
  invalidatePath(realPath: string): void {
    for (const s of this.sessions.values()) {
      for (const key of [...s.reads.keys()]) if (key.startsWith(`${realPath}\u0000`)) s.reads.delete(key);
    }
  }

  before(sessionId: string, call: ToolCall): ToolResult | undefined {
    if (!this.opts.enabled()) return undefined;
    const s = this.state(sessionId);
    const key = callKey(call);
    s.streak = s.lastKey === key ? s.streak + 1 : 1;
    s.lastKey = key;
    s.window.push(key);
    if (s.window.length > WINDOW) s.window.shift();
    if (s.streak >= 4) {
      return errorResult('repeat_blocked', `${call.name} was called ${s.streak} times in a row with the same arguments; the earlier results still stand. Change the arguments or the approach, or finish with what you have.`);
    }
    const scan = s.scans.get(key);
    if (this.repeatKind(call.name) === 'scan' && scan && scan.same >= 3) {
      return errorResult('repeat_blocked', `${call.name} returned the same result ${scan.same} times for these arguments; running it again will not change it. Use the earlier result or change approach.`);
    }
    return undefined;
  }

  after(sessionId: string, call: ToolCall, result: ToolResult, notify: (e: AgentEvent) => void, ctx?: ToolContext): ToolResult {
    if (!this.opts.enabled()) return result;
    const s = this.state(sessionId);
    const key = callKey(call);
    let out = result;
    if (this.repeatKind(call.name) === 'file-read' && result.ok && result.sha256 && result.realPath) out = this.checkRead(s, sessionId, call, result, ctx);
    else if (this.repeatKind(call.name) === 'scan' && result.ok) out = this.checkScan(s, key, call.name, result);
    if (s.streak === 3) out = withLine(out, `warning: this is the 3rd identical ${call.name} call in a row; a 4th will be refused. Use the result you have or change approach.`);
    const count = s.window.filter((k) => k === key).length;
    if (count >= LOOP_COUNT && !s.loopReported) {
      s.loopReported = true;
      out = withLine(out, `loop suspected: ${call.name} with the same arguments has run ${count} times this turn; change approach or finish with what you have`);
      notify({ type: 'loop.suspected', sessionId, tool: call.name, count });
    }
    return out;
  }

  private checkRead(s: SessionState, sessionId: string, call: ToolCall, result: ToolResult, ctx?: ToolContext): ToolResult {
    let args: { offset?: number; limit?: number } = {};
    try {
      args = JSON.parse(call.arguments);
    } catch {
      /* validated upstream */
    }
    const key = `${result.realPath}\u0000${args.offset ?? ''}\u0000${args.limit ?? ''}`;
    const rec = s.reads.get(key);
    const visible = rec ? (this.opts.isResultVisible?.(sessionId, rec.callId) ?? true) : false;
    if (!rec || rec.sha !== result.sha256 || !visible) {
      s.reads.set(key, { sha: result.sha256!, lines: result.totalLines ?? countLines(result.content), stubs: 0, callId: call.id });
      return result;
    }
    const shown = ctx ? displayPath(ctx.workspaceRoot, result.realPath!) : result.realPath!;
    if (rec.stubs >= 2) {
      return errorResult('repeat_blocked', `read_file of ${shown} was already answered with "unchanged" ${rec.stubs} times; the content in your earlier read_file result is still current. Use it, read a different range (offset/limit), or change approach.`);
    }
    rec.stubs++;
    return {
      ok: true,
      content: `unchanged since your earlier read_file of ${shown} (${rec.lines} lines, sha256 ${rec.sha.slice(0, 8)}); the content in that result is still current`,
      sha256: result.sha256,
      realPath: result.realPath,
      totalLines: result.totalLines,
    };
  }

  private checkScan(s: SessionState, key: string, tool: string, result: ToolResult): ToolResult {
    const prev = s.scans.get(key);
    if (!prev || prev.text !== result.content) {
      s.scans.set(key, { text: result.content, same: 1 });
      return result;
    }
    prev.same++;
    return { ...result, content: `same result as your earlier ${tool} call (${countLines(result.content)} lines)` };
  }
}

function withLine(r: ToolResult, line: string): ToolResult {
  return { ...r, content: `${r.content}\n${line}` };
}

function countLines(text: string): number {
  if (!text) return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}
