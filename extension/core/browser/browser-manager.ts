/**
 * The browser sessions of this process: one page per agent session (keyed by session id),
 * created on first use, closed by closeSession (session end, "Snowpea: Close Browser") or
 * closeAll. Browsers are started lazily and shared by sessions with the same launch settings;
 * a launched browser closes when its last session does.
 */
import type { Browser } from 'playwright-core';
import { BrowserSession } from './browser-session';
import type { BrowserSearchEnv } from './find-browser';
import { launchKey, openBrowser, type LaunchSettings } from './launcher';
import type { PinningProxyOptions } from './pinning-proxy';
import { systemResolver } from './system-resolver';
import type { PolicyOptions, Resolver } from './url-policy';
import { parseIp } from './ip';
import { classifyIp } from './address-class';
import { OriginConsent } from './origin-consent';

export interface BrowserManagerOptions {
  /** Resolves hostnames for the URL policy and the pinning proxy. Default: the system resolver. */
  resolver?: Resolver;
  /** Where to look for the browser executable (tests). */
  search?: BrowserSearchEnv;
  /** Keep a launched browser running after its last session closes (until closeAll). */
  keepBrowserOpen?: boolean;
  /** How the proxy opens connections (tests record what is contacted). */
  connect?: PinningProxyOptions['connect'];
  navigationTimeoutMs?: number;
  /** Longest a click, fill or key press may take (default 10 s). */
  actionTimeoutMs?: number;
  /** How long to wait for a selector's element to appear before calling it not_found (default 5 s). */
  elementWaitMs?: number;
}

export interface SessionRequest {
  id: string;
  launch: LaunchSettings;
  policy: PolicyOptions;
}

/** A CDP browser on another machine cannot reach the proxy on this machine's loopback. */
function cdpIsLocal(cdpUrl: string): boolean {
  try {
    const host = new URL(cdpUrl).hostname.toLowerCase();
    if (host === 'localhost') return true;
    const ip = parseIp(host);
    return !!ip && classifyIp(ip).kind === 'loopback';
  } catch {
    return false;
  }
}

export class BrowserManager {
  readonly resolver: Resolver;
  readonly navigationTimeoutMs: number;
  readonly actionTimeoutMs: number;
  readonly elementWaitMs: number;
  private readonly browsers = new Map<string, Promise<Browser>>();
  private readonly sessions = new Map<string, Promise<BrowserSession>>();
  private readonly consents = new Map<string, OriginConsent>();

  constructor(private readonly opts: BrowserManagerOptions = {}) {
    this.resolver = opts.resolver ?? systemResolver;
    this.navigationTimeoutMs = opts.navigationTimeoutMs ?? 30_000;
    this.actionTimeoutMs = opts.actionTimeoutMs ?? 10_000;
    this.elementWaitMs = opts.elementWaitMs ?? 5_000;
  }

  /** The session's browser, opened on first use; its policy inputs are refreshed on every call. */
  async session(req: SessionRequest): Promise<BrowserSession> {
    let pending = this.sessions.get(req.id);
    if (pending) {
      const s = await pending.catch(() => undefined);
      if (s?.alive) {
        s.policy = req.policy;
        return s;
      }
      if (this.sessions.get(req.id) === pending) this.sessions.delete(req.id);
      await s?.close();
    }
    pending = this.openSession(req);
    this.sessions.set(req.id, pending);
    pending.catch(() => this.sessions.get(req.id) === pending && this.sessions.delete(req.id));
    return pending;
  }

  /** The session's browser if it has one; never starts a browser. */
  async existing(id: string): Promise<BrowserSession | undefined> {
    const s = await this.sessions.get(id)?.catch(() => undefined);
    return s?.alive ? s : undefined;
  }

  has(id: string): boolean {
    return this.sessions.has(id);
  }

  /** Whether anything is kept for the session: its page (opening or open) or the origins its user agreed to. */
  holds(id: string): boolean {
    return this.sessions.has(id) || this.consents.has(id);
  }

  /** The origins the user agreed to in this session (kept until the session's browser is closed). */
  consent(id: string): OriginConsent {
    let c = this.consents.get(id);
    if (!c) this.consents.set(id, (c = new OriginConsent()));
    return c;
  }

  private async openSession(req: SessionRequest): Promise<BrowserSession> {
    const key = launchKey(req.launch);
    const browser = await this.browser(key, req.launch);
    const useProxy = !req.launch.cdpUrl || cdpIsLocal(req.launch.cdpUrl);
    return BrowserSession.open(req.id, browser, {
      resolver: this.resolver,
      useProxy,
      connect: this.opts.connect,
      consent: this.consent(req.id),
      navigationTimeoutMs: this.navigationTimeoutMs,
      actionTimeoutMs: this.actionTimeoutMs,
    }, req.policy);
  }

  private async browser(key: string, launch: LaunchSettings): Promise<Browser> {
    const known = this.browsers.get(key);
    if (known) {
      const b = await known.catch(() => undefined);
      if (b?.isConnected()) return b;
      if (this.browsers.get(key) === known) this.browsers.delete(key);
    }
    const started = openBrowser(launch, this.opts.search);
    this.browsers.set(key, started);
    started.then(
      (b) => b.on('disconnected', () => this.browsers.get(key) === started && this.browsers.delete(key)),
      () => this.browsers.get(key) === started && this.browsers.delete(key),
    );
    return started;
  }

  /** Closes the session's page, context and proxy; a launched browser left without sessions closes too. */
  async closeSession(id: string): Promise<void> {
    this.consents.delete(id);
    const pending = this.sessions.get(id);
    if (!pending) return;
    this.sessions.delete(id);
    const s = await pending.catch(() => undefined);
    if (!s) return;
    await s.close();
    if (this.opts.keepBrowserOpen) return;
    const users = await Promise.all([...this.sessions.values()].map((p) => p.catch(() => undefined)));
    if (users.some((u) => u?.browser === s.browser)) return;
    for (const [key, b] of this.browsers) {
      if ((await b.catch(() => undefined)) !== s.browser) continue;
      this.browsers.delete(key);
      await closeBrowser(s.browser);
    }
  }

  /** Closes every session and every browser this manager started or connected to. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.closeSession(id)));
    const browsers = [...this.browsers.values()];
    this.browsers.clear();
    await Promise.all(browsers.map(async (b) => closeBrowser(await b.catch(() => undefined))));
  }
}

/** Closing a CDP-connected browser only disconnects from it; the user's browser keeps running. */
async function closeBrowser(b: Browser | undefined): Promise<void> {
  await b?.close().catch(() => undefined);
}
