import { z } from 'zod';
import type { BrowserManager } from '../../browser/browser-manager';
import { describePage } from '../../browser/page-text';
import { checkUrl } from '../../browser/url-policy';
import { defineTool, errorResult, okResult } from '../types';
import { consentOf, onSessionPage, policyOf, refusalSince, withConsole } from './common';
import { TOOL } from '../names';

const input = z.strictObject({
  url: z.string().min(1).describe('The http(s) url to open, e.g. http://localhost:5173/ or https://example.com/docs.'),
});

export function browserNavigateTool(m: BrowserManager) {
  return defineTool({
    name: TOOL.browser_navigate,
    traits: { readOnly: true, repeat: 'plain', subagents: true, images: false },
    group: 'browser',
    permission: 'network',
    deferred: true,
    summary: 'Open a url in the session\'s browser and return the page text.',
    description:
      'Open an http(s) url in this session\'s browser page (created on first use, 1280x800) and return its url, title and visible text (capped). ' +
      'Then use browser_click, browser_type, browser_press, browser_scroll to interact and browser_snapshot or browser_screenshot to look again. ' +
      'Cloud-metadata and (depending on settings) loopback/LAN addresses are refused with policy_blocked. ' +
      'The first visit to each site (origin) in a session asks the user unless they typed its address; if they decline, the result is denied.',
    input,
    describeCall: (a) => `open ${a.url}`,
    // Approval is per origin, not per call: run() asks the first time each site is opened (see OriginConsent).
    approval: () => ({ skip: true }),
    async run(a, ctx) {
      const verdict = await checkUrl(a.url, policyOf(ctx), m.resolver);
      if (!verdict.allowed) {
        const r = errorResult(verdict.code, `${a.url} was not opened: ${verdict.reason}.`);
        return withConsole(r, await m.existing(ctx.session.id));
      }
      // Asked before the browser starts, so a declined site costs nothing and reaches nothing.
      const consent = await m.consent(ctx.session.id).check(a.url, false, consentOf(ctx, 'browser_navigate'));
      if (ctx.signal.aborted) return errorResult('cancelled', `opening ${a.url} was cancelled before it ran.`);
      if (!consent.ok) {
        const r = errorResult('denied', `${consent.reason}. Take another approach or ask the user what they want.`);
        return withConsole(r, await m.existing(ctx.session.id));
      }
      return onSessionPage(m, ctx, { tool: 'browser_navigate', create: true, doing: `opening ${a.url}` }, async (s, mark) => {
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
