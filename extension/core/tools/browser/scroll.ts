import { z } from 'zod';
import type { BrowserManager } from '../../browser/browser-manager';
import { VIEWPORT } from '../../browser/browser-session';
import { pageScroll } from '../../browser/page-text';
import { defineTool, okResult } from '../types';
import { onSessionPage } from './common';
import { TOOL } from '../names';

const input = z.strictObject({
  direction: z.enum(['down', 'up', 'top', 'bottom']).optional().describe('Which way to scroll (default down); top and bottom jump to either end.'),
  pixels: z.number().int().min(1).max(100_000).optional().describe('How far to scroll up or down, in CSS pixels (default: most of one screen).'),
});

const SCROLL_SCRIPT = `(([dy, mode]) => {
  const e = document.scrollingElement || document.documentElement;
  const before = window.scrollY;
  if (mode === 'top') window.scrollTo({ top: 0, behavior: 'instant' });
  else if (mode === 'bottom') window.scrollTo({ top: e.scrollHeight, behavior: 'instant' });
  else window.scrollBy({ top: dy, behavior: 'instant' });
  return Math.round(window.scrollY - before);
})`;

export function browserScrollTool(m: BrowserManager) {
  return defineTool({
    name: TOOL.browser_scroll,
    traits: { readOnly: true, repeat: 'plain', subagents: true, images: false },
    group: 'browser',
    permission: 'network',
    deferred: true,
    summary: 'Scroll the page vertically.',
    description:
      'Scroll the current page up or down (by pixels, default most of a screen) or to its top or bottom, and report the new position. ' +
      'When the page itself cannot scroll, a mouse wheel is sent to the middle of the viewport so inner scroll areas move.',
    input,
    describeCall: (a) => `scroll ${a.direction ?? 'down'}${a.pixels ? ` ${a.pixels}px` : ''}`,
    approval: () => ({ skip: true }),
    async run(a, ctx) {
      return onSessionPage(m, ctx, { tool: 'browser_scroll', create: false, doing: 'scrolling' }, async (s) => {
        const page = await s.page();
        const mode = a.direction ?? 'down';
        const step = a.pixels ?? Math.round(VIEWPORT.height * 0.9);
        const dy = mode === 'up' ? -step : step;
        const moved = (await page.evaluate(`${SCROLL_SCRIPT}([${dy}, ${JSON.stringify(mode)}])`)) as number;
        let note = '';
        if (moved === 0 && (mode === 'down' || mode === 'up')) {
          await page.mouse.move(VIEWPORT.width / 2, VIEWPORT.height / 2);
          await page.mouse.wheel(0, dy);
          note = ' (the page itself did not move; a mouse wheel was sent to the middle of the viewport for inner scroll areas)';
        }
        await s.settle();
        const pos = await pageScroll(page);
        const bottom = Math.max(0, pos.height - pos.viewport);
        const where = pos.y <= 0 ? 'at the top' : pos.y >= bottom ? 'at the bottom' : `${Math.round((pos.y / bottom) * 100)}% down`;
        return okResult(`Scrolled ${mode}${note}. Now at y=${pos.y} of ${pos.height} px (viewport ${pos.viewport} px), ${where}.`);
      });
    },
  });
}
