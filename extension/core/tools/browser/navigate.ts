import { z } from 'zod';
import type { BrowserManager } from '../../browser/browser-manager';
import { describePage } from '../../browser/page-text';
import { checkUrl, checkUrlWithoutDns } from '../../browser/url-policy';
import { classifyIp } from '../../browser/address-class';
import { parseIp } from '../../browser/ip';
import { defineTool, errorResult, okResult, type ToolContext } from '../types';
import { onSessionPage, policyOf, refusalSince, withConsole } from './common';

const input = z.strictObject({
  url: z.string().min(1).describe('The http(s) url to open, e.g. http://localhost:5173/ or https://example.com/docs.'),
});

/** Loopback by its text alone (no DNS in the approval step). */
function isLiteralLoopback(url: string): boolean {
  try {
    const host = new URL(url).hostname.toLowerCase().replace(/\.+$/, '');
    if (host === 'localhost' || host.endsWith('.localhost')) return true;
    const ip = parseIp(host);
    return !!ip && classifyIp(ip).kind === 'loopback';
  } catch {
    return false;
  }
}

export function browserNavigateTool(m: BrowserManager) {
  return defineTool({
    name: 'browser_navigate',
    group: 'browser',
    permission: 'network',
    deferred: true,
    summary: 'Open a url in the session\'s browser and return the page text.',
    description:
      'Open an http(s) url in this session\'s browser page (created on first use, 1280x800) and return its url, title and visible text (capped). ' +
      'Then use browser_click, browser_type, browser_press, browser_scroll to interact and browser_snapshot or browser_screenshot to look again. ' +
      'Cloud-metadata and (depending on settings) loopback/LAN addresses are refused with policy_blocked.',
    input,
    describeCall: (a) => `open ${a.url}`,
    approval: (a, ctx: ToolContext) => {
      // Nothing happens for a url the policy refuses by its text, so there is nothing to approve.
      const quick = checkUrlWithoutDns(a.url, policyOf(ctx));
      if ((quick && !quick.allowed) || isLiteralLoopback(a.url)) return { skip: true };
      return { summary: `open ${a.url} in the browser` };
    },
    async run(a, ctx) {
      const verdict = await checkUrl(a.url, policyOf(ctx), m.resolver);
      if (!verdict.allowed) {
        const r = errorResult(verdict.code, `${a.url} was not opened: ${verdict.reason}.`);
        return withConsole(r, await m.existing(ctx.session.id));
      }
      return onSessionPage(m, ctx, { create: true, doing: `opening ${a.url}` }, async (s, mark) => {
        const page = await s.page();
        const response = await page.goto(a.url, { waitUntil: 'domcontentloaded' });
        await s.settle();
        const refused = await refusalSince(s, mark, `Opening ${a.url}`);
        if (refused) return refused;
        const status = response ? ` (HTTP ${response.status()})` : '';
        return okResult(`Opened ${a.url}${status}\n${await describePage(page)}`);
      });
    },
  });
}
