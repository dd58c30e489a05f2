import { z } from 'zod';
import type { BrowserManager } from '../../browser/browser-manager';
import { pageHeader } from '../../browser/page-text';
import { defineTool, okResult } from '../types';
import { findElement, notFound, onSessionPage, refusalSince } from './common';
import { TOOL } from '../names';

const input = z.strictObject({
  selector: z.string().min(1).describe('CSS selector of the element to click (the first match is clicked), e.g. "#submit" or "a[href=\\"/next\\"]". Playwright\'s :has-text("…") works too.'),
});

export function browserClickTool(m: BrowserManager) {
  return defineTool({
    name: TOOL.browser_click,
    traits: { readOnly: false, repeat: 'plain', subagents: true, images: false },
    group: 'browser',
    permission: 'network',
    deferred: true,
    summary: 'Click the first element matching a CSS selector.',
    description:
      'Click the first element on the current page that matches a CSS selector, wait for what the click starts (a navigation, a popup) to load, ' +
      'and return the resulting url and title. A page the click lands on is checked by the URL policy again, and going to a site not visited yet this session asks the user (denied if they decline).',
    input,
    describeCall: (a) => `click ${a.selector}`,
    approval: () => ({ skip: true }),
    async run(a, ctx) {
      return onSessionPage(m, ctx, { tool: 'browser_click', create: false, doing: `clicking ${a.selector}` }, async (s, mark) => {
        const page = await s.page();
        const target = await findElement(page, a.selector, m.elementWaitMs);
        if (!target) return notFound(a.selector);
        await target.click();
        await s.settle();
        const refused = await refusalSince(s, mark, `Clicking ${a.selector}`);
        if (refused) return refused;
        return okResult(`Clicked ${a.selector}\n${await pageHeader(await s.page())}`);
      });
    },
  });
}
