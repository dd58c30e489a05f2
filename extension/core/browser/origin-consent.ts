/**
 * Where a session's browser may send data: the origins the user agreed to. The first navigation to
 * each origin in a session (loopback included) asks the user, whether the model opened it or the
 * page went there itself (a link, a form, a script, a redirect), unless the user typed that
 * address in the conversation or auto-approved the browser tools. Answers last for the session.
 */
import { parseTarget } from './url-policy';
import { userTypedAddress } from './typed-address';

/** Who to ask and what counts as agreed, for the tool action now running. */
export interface ConsentContext {
  /** The running tool, named in the question. */
  tool: string;
  /** approvals.autoApprove holds the tool's name or `network`. */
  autoApproved: boolean;
  /** What the user typed in the conversation. */
  typedTexts: readonly string[];
  /** Asks the user; true when they agree. A thrown error or cancellation counts as no. */
  ask(summary: string): Promise<boolean>;
}

export type ConsentAnswer = { ok: true } | { ok: false; reason: string };

/** `https://example.com`, `http://127.0.0.1:8080`; undefined for a url that is not http(s). */
export function originOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

export class OriginConsent {
  private readonly approved = new Set<string>();
  /** Questions in flight per origin, so a page that goes to one origin twice asks once. */
  private readonly asking = new Map<string, Promise<boolean>>();
  /** The context of the tool action now running; undefined between actions. */
  current: ConsentContext | undefined;

  has(origin: string): boolean {
    return this.approved.has(origin);
  }

  /**
   * Whether `url` may be opened. `byPage` is true when the page navigates by itself (the user is told
   * the page started it); false for the model's own browser_navigate.
   */
  async check(url: string, byPage: boolean, ctx = this.current): Promise<ConsentAnswer> {
    const origin = originOf(url);
    if (!origin || this.approved.has(origin)) return { ok: true };
    if (!ctx) {
      return { ok: false, reason: `the page tried to go to ${origin} while no browser tool was running, so the user could not be asked; it was not opened` };
    }
    if (ctx.autoApproved || typed(url, ctx.typedTexts)) {
      this.approved.add(origin);
      return { ok: true };
    }
    let pending = this.asking.get(origin);
    if (!pending) {
      const summary = byPage
        ? `let the page go to ${url} (${ctx.tool}: the page navigates to ${origin}, not visited yet this session; the full url, query included, is sent there)`
        : `open ${url} in the browser (first visit to ${origin} this session; the full url, query included, is sent there)`;
      pending = ctx.ask(summary).catch(() => false);
      this.asking.set(origin, pending);
      void pending.finally(() => this.asking.delete(origin));
    }
    if (await pending) {
      this.approved.add(origin);
      return { ok: true };
    }
    return byPage
      ? { ok: false, reason: `the page tried to go to ${origin} and the user declined, so it was not opened` }
      : { ok: false, reason: `the user declined opening ${url}, so it was not opened` };
  }
}

/** The user typed this url's address (host, or host:port) in the conversation. */
function typed(url: string, texts: readonly string[]): boolean {
  const p = parseTarget(url);
  if ('reason' in p) return false;
  return userTypedAddress(texts, p.target.host, p.target.port, p.target.defaultPort);
}
