/**
 * Document requests of a session that did not go through: refused by the URL policy, declined by
 * the user (a page going to an origin they had not agreed to), or unreachable (the connection
 * failed). Each entry is tagged with the tool action that was running when it happened (0: none),
 * so a late refusal is not reported as the next action's outcome.
 */

export type BlockKind = 'policy' | 'declined' | 'unreachable';

export interface DocumentBlock {
  seq: number;
  url: string;
  reason: string;
  kind: BlockKind;
  /** A page's own document (navigation, redirect, popup), not a frame inside it. */
  mainFrame: boolean;
  /** The action running when it was recorded; 0 when the page did it between actions. */
  action: number;
}

/** What the proxy refused or could not reach, recorded by the proxy itself (never read from response headers). */
interface ProxyNote {
  reason: string;
  kind: BlockKind;
}

const KEEP = 20;

/** The key a url is noted under: no fragment, canonical form. */
export function urlKey(url: string): string {
  try {
    const u = new URL(url);
    u.hash = '';
    return u.href;
  } catch {
    return url;
  }
}

export class BlockLog {
  private entries: DocumentBlock[] = [];
  private seq = 0;
  /** The action now running (0: none); set by the session around each tool action. */
  action = 0;
  /** Requests already recorded (the route's refusal is also reported as a failed request). */
  private readonly seen = new WeakSet<object>();
  /** The proxy's latest refusal or failure per host:port (tunnels) and per url (plain http). */
  private readonly notes = new Map<string, ProxyNote>();

  add(request: object, url: string, reason: string, mainFrame: boolean, kind: BlockKind = 'policy'): void {
    if (this.seen.has(request)) return;
    this.seen.add(request);
    this.entries.push({ seq: ++this.seq, url, reason, kind, mainFrame, action: this.action });
    if (this.entries.length > KEEP) this.entries.shift();
  }

  /** Entries recorded while `action` ran. */
  during(action: number): DocumentBlock[] {
    return this.entries.filter((e) => e.action === action);
  }

  /** Main-frame entries recorded between actions that no result has reported yet; each is returned once. */
  takeBetweenActions(): DocumentBlock[] {
    const idle = this.entries.filter((e) => e.action === 0 && e.mainFrame);
    this.entries = this.entries.filter((e) => !idle.includes(e));
    return idle;
  }

  /** The proxy refused (policy or consent) or could not reach `key` (a url, or host:port for a tunnel). */
  noteProxy(key: string, reason: string, kind: BlockKind): void {
    this.notes.delete(key);
    this.notes.set(key, { reason, kind });
    if (this.notes.size > KEEP) this.notes.delete(this.notes.keys().next().value!);
  }

  /** The proxy let `key` through: an older note about it no longer explains a failure. */
  clearProxy(key: string): void {
    this.notes.delete(key);
  }

  proxyNote(key: string): ProxyNote | undefined {
    return this.notes.get(key);
  }
}
