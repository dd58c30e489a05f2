import { z } from 'zod';
import type { BrowserManager } from '../../browser/browser-manager';
import { describePage, pageElements, pageScroll } from '../../browser/page-text';
import { defineTool, okResult } from '../types';
import { onSessionPage } from './common';
import { TOOL } from '../names';

const input = z.strictObject({});

export function browserSnapshotTool(m: BrowserManager) {
  return defineTool({
    name: TOOL.browser_snapshot,
    traits: { readOnly: true, repeat: 'plain', subagents: true, images: false },
    group: 'browser',
    permission: 'network',
    deferred: true,
    summary: 'Return the page\'s url, title and visible text.',
    description:
      'Return the current page\'s url, title, scroll position, visible text (capped) and the links, buttons and fields on it with a CSS selector for each ' +
      '(for browser_click and browser_type). Works with any model; use it instead of browser_screenshot when the model has no vision.',
    input,
    describeCall: () => 'snapshot the page',
    approval: () => ({ skip: true }),
    async run(_a, ctx) {
      return onSessionPage(m, ctx, { tool: 'browser_snapshot', create: false, doing: 'reading the page' }, async (s) => {
        const page = await s.page();
        const [text, pos, elements] = await Promise.all([describePage(page), pageScroll(page), pageElements(page).catch(() => [])]);
        const scroll = `Scroll: y=${pos.y} of ${pos.height} px (viewport ${pos.viewport} px)`;
        const list = elements.length ? `\n\nElements (selector for browser_click / browser_type):\n${elements.map((e) => `- ${e}`).join('\n')}` : '';
        return okResult(`${text}${list}\n\n${scroll}`);
      });
    },
  });
}
