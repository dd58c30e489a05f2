/**
 * Document requests the URL policy refused in a session: a navigation, redirect, clicked link,
 * popup or frame that was aborted. Tools look at what was refused during their own action.
 */

export interface DocumentBlock {
  seq: number;
  url: string;
  reason: string;
  /** A page's own document (navigation, redirect, popup), not a frame inside it. */
  mainFrame: boolean;
}

const KEEP = 20;

export class BlockLog {
  private entries: DocumentBlock[] = [];
  private seq = 0;
  /** Requests already recorded (the route's refusal is also reported as a failed request). */
  private readonly seen = new WeakSet<object>();
  /** The latest refusal the proxy made per host:port, to explain a failed tunnel (ERR_TUNNEL_CONNECTION_FAILED). */
  private readonly proxyReasons = new Map<string, string>();

  add(request: object, url: string, reason: string, mainFrame: boolean): void {
    if (this.seen.has(request)) return;
    this.seen.add(request);
    this.entries.push({ seq: ++this.seq, url, reason, mainFrame });
    if (this.entries.length > KEEP) this.entries.shift();
  }

  /** A position to compare against after an action. */
  mark(): number {
    return this.seq;
  }

  since(mark: number): DocumentBlock[] {
    return this.entries.filter((e) => e.seq > mark);
  }

  noteProxyRefusal(hostPort: string, reason: string): void {
    this.proxyReasons.delete(hostPort);
    this.proxyReasons.set(hostPort, reason);
    if (this.proxyReasons.size > KEEP) this.proxyReasons.delete(this.proxyReasons.keys().next().value!);
  }

  proxyReason(hostPort: string): string | undefined {
    return this.proxyReasons.get(hostPort);
  }
}
