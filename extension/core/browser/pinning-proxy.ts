/**
 * A forward proxy on 127.0.0.1 that every browser connection of a session goes through
 * (loopback included). For each request it resolves the host once, runs the URL policy on
 * what it got, and connects to exactly those addresses itself, so a name cannot resolve to
 * one address for the check and another for the connection (DNS rebinding). Refused requests
 * never open a connection. HTTPS and WebSockets arrive as CONNECT; plain HTTP as absolute urls.
 */
import * as http from 'node:http';
import * as net from 'node:net';
import type { Duplex } from 'node:stream';
import { hostTarget, type Target, type Verdict } from './url-policy';

export interface BlockedConnection {
  host: string;
  port: number;
  reason: string;
  /** The full url, for plain http (a tunnel shows only host and port). */
  url?: string;
}

export interface PinningProxyOptions {
  /** The policy: refused, or the checked addresses to connect to (resolved once for this request). */
  decide(target: Target): Promise<Verdict>;
  /** Opens a TCP connection; tests pass one that records what is contacted. */
  connect?(address: string, port: number): net.Socket;
  /** The URL policy refused a request; the browser side learns of refusals only this way (out of band). */
  onBlocked?(b: BlockedConnection): void;
  /** The policy allowed a request and the proxy went on to connect. */
  onAllowed?(b: Omit<BlockedConnection, 'reason'>): void;
  /** The connection to an allowed address failed (refused port, unreachable host): not a refusal. */
  onUnreachable?(b: BlockedConnection): void;
  /**
   * A top-level page navigation over plain http (Sec-Fetch-Dest: document), redirects included:
   * resolves to a reason when it must not go out (the user declined its origin), else undefined.
   */
  checkNavigation?(url: string): Promise<string | undefined>;
  onDeclined?(b: BlockedConnection): void;
}

/**
 * Headers older versions used to mark refusals. Refusals now travel out of band (the callbacks
 * above), and a site's own copies are stripped from every plain-http response the proxy relays;
 * inside an https tunnel the proxy cannot see them, and nothing trusts them anywhere.
 */
export const POLICY_HEADER = 'x-snowpea-policy';
export const POLICY_REASON_HEADER = 'x-snowpea-policy-reason';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'upgrade']);

export function splitHostPort(s: string): { host: string; port: number } | undefined {
  const m = /^\[([^\]]+)\]:(\d+)$/.exec(s) ?? /^([^:[\]]+):(\d+)$/.exec(s);
  if (!m) return undefined;
  const port = Number(m[2]);
  if (!(port > 0 && port < 65536)) return undefined;
  return { host: m[1].includes(':') ? `[${m[1]}]` : m[1], port };
}

function messagePage(title: string, text: string): string {
  const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><title>${esc(title)}</title><h1>${esc(title)}</h1><p>${esc(text)}</p>`;
}

const BLOCKED_TITLE = "Blocked by Snowpea's URL policy";
const UNREACHABLE_TITLE = 'Snowpea could not connect';

export class PinningProxy {
  private readonly server: http.Server;
  private readonly sockets = new Set<Duplex>();
  private listenPort = 0;

  constructor(private readonly opts: PinningProxyOptions) {
    this.server = http.createServer((req, res) => void this.onRequest(req, res));
    this.server.on('connect', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void this.onConnect(req, socket, head));
    this.server.on('connection', (s: net.Socket) => this.track(s));
  }

  get port(): number {
    return this.listenPort;
  }

  /** The proxy url to give the browser. */
  get url(): string {
    return `http://127.0.0.1:${this.listenPort}`;
  }

  async start(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve());
    });
    this.listenPort = (this.server.address() as net.AddressInfo).port;
    return this.listenPort;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    if (!this.server.listening) return;
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private track(s: Duplex): void {
    this.sockets.add(s);
    s.on('error', () => undefined);
    s.once('close', () => this.sockets.delete(s));
  }

  private async decide(t: Target, url?: string): Promise<Verdict> {
    const v = await this.opts.decide(t).catch((e: Error): Verdict => ({ allowed: false, code: 'policy_blocked', reason: `the URL policy failed: ${e.message}` }));
    if (!v.allowed && v.code === 'policy_blocked') this.opts.onBlocked?.({ host: t.host, port: t.port, reason: v.reason, url });
    if (v.allowed) this.opts.onAllowed?.({ host: t.host, port: t.port, url });
    return v;
  }

  /** Connects to the checked addresses in order; the first that answers is used. */
  private async open(addresses: string[], port: number): Promise<net.Socket> {
    let last: Error = new Error('no address to connect to');
    for (const address of addresses) {
      const s = this.opts.connect ? this.opts.connect(address, port) : net.connect({ host: address, port });
      this.track(s);
      try {
        await new Promise<void>((resolve, reject) => {
          s.once('connect', resolve);
          s.once('error', reject);
        });
        return s;
      } catch (e) {
        last = e as Error;
        s.destroy();
      }
    }
    throw last;
  }

  private async onConnect(req: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    const reply = (status: number, text: string, extra = ''): void =>
      void client.end(`HTTP/1.1 ${status} ${text.replace(/[\r\n]/g, ' ')}\r\n${extra}Content-Length: 0\r\nConnection: close\r\n\r\n`);
    const hp = splitHostPort(req.url ?? '');
    if (!hp) return reply(400, 'Bad CONNECT target');
    const target = hostTarget(hp.host, hp.port, hp.port === 80 ? 'http' : 'https');
    const v = await this.decide(target);
    if (!v.allowed) {
      if (v.code === 'not_found') return reply(502, 'Host not resolved');
      return reply(403, 'Blocked by Snowpea URL policy');
    }
    if (client.destroyed) return;
    let upstream: net.Socket;
    try {
      upstream = await this.open(v.addresses, hp.port);
    } catch (e) {
      this.opts.onUnreachable?.({ host: target.host, port: hp.port, reason: connectError(target.host, hp.port, e) });
      return reply(502, 'Upstream connection failed');
    }
    if (client.destroyed) return void upstream.destroy();
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
    const done = () => {
      upstream.destroy();
      client.destroy();
    };
    upstream.once('close', done);
    client.once('close', done);
  }

  private async onRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const fail = (status: number, text: string, title = BLOCKED_TITLE) => {
      if (res.headersSent) return void res.destroy();
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', connection: 'close' });
      res.end(messagePage(title, text));
    };
    let u: URL;
    try {
      u = new URL(req.url ?? '');
    } catch {
      return fail(400, 'this is a proxy: send absolute http urls or CONNECT');
    }
    if (u.protocol !== 'http:') return fail(400, `the proxy carries http urls only, not ${u.protocol}`);
    const port = u.port ? Number(u.port) : 80;
    const target = hostTarget(u.hostname, port, 'http');
    const v = await this.decide(target, u.href);
    if (!v.allowed) {
      if (v.code === 'not_found') return fail(502, v.reason, UNREACHABLE_TITLE);
      return fail(403, v.reason);
    }
    if (req.headers['sec-fetch-dest'] === 'document' && this.opts.checkNavigation) {
      const declined = await this.opts.checkNavigation(u.href).catch((e: Error) => `the approval failed: ${e.message}`);
      if (declined) {
        this.opts.onDeclined?.({ host: target.host, port, reason: declined, url: u.href });
        // 204 No Content: the browser stays on the page it was on.
        if (!res.headersSent) res.writeHead(204, { 'cache-control': 'no-store', connection: 'close' }).end();
        return;
      }
    }
    let socket: net.Socket;
    try {
      socket = await this.open(v.addresses, port);
    } catch (e) {
      const reason = connectError(target.host, port, e);
      this.opts.onUnreachable?.({ host: target.host, port, reason, url: u.href });
      return fail(502, reason, UNREACHABLE_TITLE);
    }
    const headers: Record<string, string | string[]> = {};
    for (const [k, val] of Object.entries(req.headers)) if (val !== undefined && !HOP_BY_HOP.has(k)) headers[k] = val;
    headers.connection = 'close';
    const up = http.request({ method: req.method, path: `${u.pathname}${u.search}`, headers, createConnection: () => socket });
    up.on('response', (r) => {
      const out: Record<string, string | string[]> = {};
      for (const [k, val] of Object.entries(r.headers)) {
        // A site cannot pass its page off as a refusal of the policy.
        if (val !== undefined && !HOP_BY_HOP.has(k) && k !== POLICY_HEADER && k !== POLICY_REASON_HEADER) out[k] = val;
      }
      res.writeHead(r.statusCode ?? 502, r.statusMessage, out);
      r.pipe(res);
      r.on('error', () => res.destroy());
    });
    up.on('error', (e) => fail(502, `the request to ${u.host} failed: ${e.message}`, UNREACHABLE_TITLE));
    req.pipe(up);
  }
}

/** "could not connect to 127.0.0.1:9 (connection refused)". */
function connectError(host: string, port: number, e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  const words: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ETIMEDOUT: 'timed out',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    ECONNRESET: 'connection reset',
  };
  return `could not connect to ${host}:${port} (${(code && words[code]) ?? (e as Error).message})`;
}
