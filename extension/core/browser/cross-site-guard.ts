/**
 * Keeps a page from sending data to sites the session has not opened (red team M2, residual): a
 * request a page makes by itself for a subresource, a frame, a beacon, a fetch or a WebSocket
 * goes through only to the page's own origin or to an origin the user agreed to (typed it,
 * approved it, or auto-approved the browser tools: OriginConsent). Anything else is blocked, not
 * asked: a page can make hundreds of such requests, and a question per origin would teach
 * "yes". What was blocked is counted per origin and action, and told to the model once.
 */
import { originOf } from './origin-consent';

export interface CrossSiteVerdict {
  /** The origin the request would reach, when it is blocked. */
  blocked?: string;
}

export class CrossSiteGuard {
  /** action -> origin -> blocked requests. */
  private readonly counts = new Map<number, Map<string, number>>();

  constructor(private readonly approved: (origin: string) => boolean) {}

  /**
   * Whether a page's own request for `url` may go out. `pageUrl` is the top page's address (its
   * origin may always be reached); non-http(s) urls (data:, blob:, about:) never leave the browser.
   */
  check(url: string, pageUrl: string | undefined, action: number): CrossSiteVerdict {
    const origin = originOf(url);
    if (!origin) return {};
    const page = pageUrl ? originOf(pageUrl) : undefined;
    if (origin === page || this.approved(origin)) return {};
    let byOrigin = this.counts.get(action);
    if (!byOrigin) this.counts.set(action, (byOrigin = new Map()));
    byOrigin.set(origin, (byOrigin.get(origin) ?? 0) + 1);
    if (this.counts.size > 50) this.counts.delete(this.counts.keys().next().value!);
    return { blocked: origin };
  }

  /** What was blocked while `action` ran (and between actions, action 0), once: one line for the tool result, or ''. */
  take(action: number): string {
    const parts: string[] = [];
    for (const a of [0, action]) {
      const byOrigin = this.counts.get(a);
      if (!byOrigin) continue;
      this.counts.delete(a);
      for (const [origin, n] of byOrigin) parts.push(`${origin} (${n} request${n === 1 ? '' : 's'})`);
    }
    if (!parts.length) return '';
    return `\nThe page's own requests to other sites were blocked (a page may reach only its own site and sites opened in this session; open one with browser_navigate if it is needed): ${parts.join(', ')}`;
  }
}
