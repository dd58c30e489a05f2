/**
 * One session's browser: a fresh context (its own profile, cookies and storage) behind the
 * session's pinning proxy, one current page, the console log and the refusals of the URL policy.
 * Every document request (navigation, frame, popup) is checked again before it leaves.
 */
import type { Browser, BrowserContext, Page, Request, Response, Route } from 'playwright-core';
import { BlockLog, urlKey, type BlockKind } from './block-log';
import { ConsoleLog } from './console-log';
import { CrossSiteGuard } from './cross-site-guard';
import type { ConsentContext, OriginConsent } from './origin-consent';
import { PinningProxy, type BlockedConnection, type PinningProxyOptions } from './pinning-proxy';
import { checkTarget, checkUrl, hostTarget, type PolicyOptions, type Resolver } from './url-policy';

export const VIEWPORT = { width: 1280, height: 800 };

export interface SessionDeps {
  resolver: Resolver;
  /** Route the browser through the pinning proxy (false only for a remote CDP browser that cannot reach it). */
  useProxy: boolean;
  connect?: PinningProxyOptions['connect'];
  /** The origins the user agreed to in this session; every main-frame navigation is checked against it. */
  consent: OriginConsent;
  navigationTimeoutMs: number;
  actionTimeoutMs: number;
}

function isMainFrame(req: Request): boolean {
  try {
    return req.frame().parentFrame() === null;
  } catch {
    return true;
  }
}

/** The address of the top page a request belongs to (undefined when its frame is gone). */
function topUrl(req: Request): string | undefined {
  try {
    let f = req.frame();
    while (f.parentFrame()) f = f.parentFrame()!;
    return f.url();
  } catch {
    return undefined;
  }
}

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The status of the proxy's own answer for each kind of note. */
const PROXY_STATUS = { policy: 403, declined: 204, unreachable: 502 } as const;
/** How long a refused navigation may take to show Chromium's error page before we look for it. */
const ERROR_PAGE_WAIT_MS = 1_000;
/** Going back from a refused page: tries, and the pause after one that found the page detaching. */
const GO_BACK_ATTEMPTS = 3;
const GO_BACK_RETRY_MS = 100;

/** How the proxy and the session name a tunnel's destination: `example.com:443`, `[::1]:8080`. */
function hostPortKey(url: string): string | undefined {
  try {
    const u = new URL(url);
    const scheme = u.protocol === 'https:' ? 'https' : 'http';
    const port = u.port ? Number(u.port) : scheme === 'https' ? 443 : 80;
    return `${hostTarget(u.hostname, port, scheme).host}:${port}`;
  } catch {
    return undefined;
  }
}

export class BrowserSession {
  readonly console = new ConsoleLog();
  readonly blocks = new BlockLog();
  /** The page's own requests to sites this session has not opened (subresources, frames, beacons, WebSockets). */
  readonly crossSite = new CrossSiteGuard((origin) => this.deps.consent.has(origin));
  /** Updated from each tool call's settings and the user's typed text. */
  policy: PolicyOptions = { privateNetwork: 'allow', typedTexts: [] };
  private pages: Page[] = [];
  private context!: BrowserContext;
  private proxy: PinningProxy | undefined;
  private readonly pending = new Set<Promise<unknown>>();
  /** Windows a page announced (Page.windowOpen) that have not arrived as pages yet. */
  private opening = 0;
  /** Pages this session itself is creating (not popups). */
  private ownPages = 0;
  private readonly pageWaiters = new Set<() => void>();
  /** Tool actions on the page run one at a time, in call order. */
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private actions = 0;

  private constructor(
    readonly id: string,
    readonly browser: Browser,
    private readonly deps: SessionDeps,
  ) {}

  static async open(id: string, browser: Browser, deps: SessionDeps, policy: PolicyOptions): Promise<BrowserSession> {
    const s = new BrowserSession(id, browser, deps);
    s.policy = policy;
    try {
      await s.init();
    } catch (e) {
      await s.close();
      throw e;
    }
    return s;
  }

  private async init(): Promise<void> {
    if (this.deps.useProxy) {
      const note = (kind: BlockKind) => (b: BlockedConnection) => this.blocks.noteProxy(b.url ? urlKey(b.url) : `${b.host}:${b.port}`, b.reason, kind);
      this.proxy = new PinningProxy({
        decide: (t) => checkTarget(t, this.policy, this.deps.resolver),
        connect: this.deps.connect,
        onBlocked: note('policy'),
        onDeclined: note('declined'),
        onUnreachable: note('unreachable'),
        onAllowed: (b) => this.blocks.clearProxy(b.url ? urlKey(b.url) : `${b.host}:${b.port}`),
        checkNavigation: async (url) => {
          const c = await this.deps.consent.check(url, true);
          return c.ok ? undefined : c.reason;
        },
      });
      await this.proxy.start();
    }
    this.context = await this.browser.newContext({
      viewport: VIEWPORT,
      acceptDownloads: false,
      proxy: this.proxy ? { server: this.proxy.url } : undefined,
    });
    this.context.setDefaultNavigationTimeout(this.deps.navigationTimeoutMs);
    this.context.setDefaultTimeout(this.deps.actionTimeoutMs);
    await this.context.route('**/*', (route) => this.track(this.onRoute(route)));
    await this.context.routeWebSocket('**/*', (ws) => {
      const verdict = this.crossSite.check(ws.url().replace(/^ws/, 'http'), this.current?.url(), this.blocks.action);
      if (verdict.blocked) return void ws.close({ code: 1008, reason: 'blocked by Snowpea: a site this session has not opened' }).catch(() => undefined);
      ws.connectToServer();
    });
    this.context.on('page', (p) => {
      if (this.ownPages > 0) this.ownPages--;
      else if (this.opening > 0) this.opening--;
      this.adopt(p);
      for (const w of [...this.pageWaiters]) w();
    });
    this.context.on('response', (r) => this.onResponse(r));
    this.context.on('requestfailed', (r) => this.onRequestFailed(r));
    await this.page();
  }

  /** Runs `fn` after every action queued before it has finished. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Runs a tool action on the page: navigations it starts ask `consent` for new origins, and the
   * refusals recorded meanwhile are tagged with its number, which `fn` receives.
   */
  action<T>(consent: ConsentContext, fn: (id: number) => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      const id = ++this.actions;
      this.blocks.action = id;
      this.deps.consent.current = consent;
      try {
        return await fn(id);
      } finally {
        this.blocks.action = 0;
        this.deps.consent.current = undefined;
      }
    });
  }

  get alive(): boolean {
    return !this.closed && this.browser.isConnected();
  }

  /** The session's page: the newest open one (a popup, or a tab a link opened); a new one when all were closed. */
  async page(): Promise<Page> {
    if (!this.current) {
      this.ownPages++;
      this.adopt(await this.context.newPage());
    }
    return this.current!;
  }

  private get current(): Page | undefined {
    return this.pages.filter((p) => !p.isClosed()).at(-1);
  }

  /** The current page's url (about:blank before the first navigation). */
  currentUrl(): string {
    return this.current?.url() ?? 'about:blank';
  }

  /** A new tab or popup becomes the session's page, since that is where the click went; closing it returns to the page before. */
  private adopt(p: Page): void {
    if (this.pages.includes(p) || p.isClosed()) return;
    p.on('console', (m) => {
      const t = m.type();
      if (t !== 'error' && t !== 'warning') return;
      const loc = m.location();
      this.console.add(t, loc?.url ? `${m.text()} (${loc.url}:${loc.lineNumber + 1})` : m.text());
    });
    p.on('pageerror', (e) => this.console.add('exception', e.stack?.split('\n').slice(0, 3).join('\n') || e.message));
    p.once('close', () => {
      this.pages = this.pages.filter((x) => x !== p);
    });
    this.pages.push(p);
    void this.watchWindowOpens(p);
  }

  /** Chromium announces a popup or new tab in its opener before the page exists; settle() waits for it. */
  private async watchWindowOpens(p: Page): Promise<void> {
    try {
      const cdp = await this.context.newCDPSession(p);
      cdp.on('Page.windowOpen', () => void this.opening++);
      await cdp.send('Page.enable');
    } catch {
      /* the page closed already */
    }
  }

  private async popupsArrived(timeoutMs: number): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (this.opening > 0 && Date.now() < end) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(t);
          this.pageWaiters.delete(done);
          resolve();
        };
        const t = setTimeout(done, Math.max(0, end - Date.now()));
        this.pageWaiters.add(done);
      });
    }
    this.opening = 0;
  }

  /**
   * After a refused navigation the page shows Chromium's error page or the proxy's refusal:
   * go back to where it was (a popup with nowhere to go back to is closed).
   */
  async leaveRefusedPage(blockedUrl: string): Promise<void> {
    const p = this.current;
    const stuck = () => !!p && !p.isClosed() && (p.url().startsWith('chrome-error:') || p.url() === blockedUrl);
    if (!p) return;
    // Chromium commits its error page for an aborted document a moment after the abort: wait for it
    // briefly, or the page would be left on the error page once it lands.
    if (!stuck()) await p.waitForURL((u) => u.protocol === 'chrome-error:' || u.href === blockedUrl, { waitUntil: 'commit', timeout: ERROR_PAGE_WAIT_MS }).catch(() => undefined);
    // Right after Chromium swaps in its error page the page's target can be detaching ("Not attached
    // to an active page"): going back then fails, so it is tried again once the page has settled.
    for (let attempt = 0; attempt < GO_BACK_ATTEMPTS && stuck(); attempt++) {
      const failed = await p.goBack({ waitUntil: 'commit' }).then(
        () => false,
        () => true,
      );
      if (!failed || p.isClosed()) continue;
      await p.waitForLoadState('load', { timeout: ERROR_PAGE_WAIT_MS }).catch(() => undefined);
      await new Promise((r) => setTimeout(r, GO_BACK_RETRY_MS));
    }
    if (!stuck()) return;
    if (this.pages.length > 1) await p.close().catch(() => undefined);
    else await p.goto('about:blank').catch(() => undefined);
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p)).catch(() => undefined);
    return p;
  }

  private async onRoute(route: Route): Promise<void> {
    const req = route.request();
    if (req.resourceType() !== 'document') {
      // A page's own subresource, beacon or fetch: only to its own site or one the user opened.
      const verdict = this.crossSite.check(req.url(), topUrl(req), this.blocks.action);
      if (verdict.blocked) return route.abort('blockedbyclient').catch(() => undefined);
      return route.fallback().catch(() => undefined);
    }
    const v = await checkUrl(req.url(), this.policy, this.deps.resolver).catch((e: Error) => ({ allowed: false as const, code: 'policy_blocked' as const, reason: e.message }));
    if (!v.allowed && v.code === 'policy_blocked') {
      this.blocks.add(req, req.url(), v.reason, isMainFrame(req));
      return route.abort('blockedbyclient').catch(() => undefined);
    }
    if (!isMainFrame(req)) {
      // A frame: the URL policy first (it names a refused address), then only its page's own site or one the user opened.
      const verdict = this.crossSite.check(req.url(), topUrl(req), this.blocks.action);
      if (verdict.blocked) return route.abort('blockedbyclient').catch(() => undefined);
    } else {
      const c = await this.deps.consent.check(req.url(), true);
      if (!c.ok) {
        this.blocks.add(req, req.url(), c.reason, true, 'declined');
        return route.abort('blockedbyclient').catch(() => undefined);
      }
    }
    return route.fallback().catch(() => undefined);
  }

  /**
   * A plain-http redirect the proxy refused (policy or consent) or could not reach comes back as the
   * proxy's own page; what happened is read from the proxy's note for that url, never from the response.
   */
  private onResponse(r: Response): void {
    const req = r.request();
    if (req.resourceType() !== 'document') return;
    const note = this.blocks.proxyNote(urlKey(req.url()));
    if (!note || r.status() !== PROXY_STATUS[note.kind]) return;
    this.blocks.add(req, req.url(), note.reason, isMainFrame(req), note.kind);
  }

  /**
   * An https request the proxy refused or could not reach fails its tunnel, and a redirect the proxy
   * answered 204 (declined) is aborted; the proxy noted why.
   */
  private onRequestFailed(req: Request): void {
    if (req.resourceType() !== 'document') return;
    const byUrl = this.blocks.proxyNote(urlKey(req.url()));
    if (byUrl?.kind === 'declined') return this.blocks.add(req, req.url(), byUrl.reason, isMainFrame(req), byUrl.kind);
    const key = hostPortKey(req.url());
    const note = key ? this.blocks.proxyNote(key) : undefined;
    if (note && /TUNNEL|PROXY/i.test(req.failure()?.errorText ?? '')) this.blocks.add(req, req.url(), note.reason, isMainFrame(req), note.kind);
  }

  /** Waits until what an action started has settled: policy checks answered, the landing page loaded. */
  async settle(): Promise<void> {
    await delay(120);
    await this.popupsArrived(this.deps.actionTimeoutMs);
    await this.drain();
    const p = this.current;
    if (p && !p.isClosed()) await p.waitForLoadState('load', { timeout: this.deps.navigationTimeoutMs }).catch(() => undefined);
    await this.drain();
  }

  private async drain(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.context?.close().catch(() => undefined);
    await this.proxy?.close();
  }
}
