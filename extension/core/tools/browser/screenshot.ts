import { z } from 'zod';
import type { BrowserManager } from '../../browser/browser-manager';
import { ImageError } from '../../images/limits';
import { defineTool, errorResult, okResult } from '../types';
import { findElement, notFound, onSessionPage } from './common';
import { TOOL } from '../names';

const input = z.strictObject({
  full_page: z.boolean().optional().describe('Capture the whole scrollable page instead of the 1280x800 viewport.'),
  selector: z.string().min(1).optional().describe('Capture only the first element matching this CSS selector.'),
});

let shots = 0;

export function browserScreenshotTool(m: BrowserManager) {
  return defineTool({
    name: TOOL.browser_screenshot,
    traits: { readOnly: true, repeat: 'plain', subagents: true, images: true },
    group: 'browser',
    permission: 'network',
    deferred: true,
    summary: 'Capture the viewport, the full page or one element and attach it as an image.',
    description:
      'Capture the current page (the 1280x800 viewport by default, the full_page, or the element matching selector) and attach it to the conversation ' +
      'as an image, like view_image. Only for models that accept images; otherwise use browser_snapshot.',
    input,
    describeCall: (a) => `screenshot ${a.selector ?? (a.full_page ? 'the full page' : 'the viewport')}`,
    approval: () => ({ skip: true }),
    async run(a, ctx) {
      const store = ctx.attachments;
      if (store && !store.supportsImages) {
        return errorResult(
          'vision_unsupported',
          `the model ${ctx.settings['model.name']} does not accept images, so a screenshot cannot be shown to it. ` +
            'Call browser_snapshot to read the page\'s url, title, text and elements instead (or set snowpea.model.supportsImages to true if the model does take images).',
        );
      }
      if (!store) return errorResult('unavailable', 'images cannot be attached in this session (no attachment store); call browser_snapshot to read the page instead');
      return onSessionPage(m, ctx, { tool: 'browser_screenshot', create: false, doing: 'taking a screenshot' }, async (s) => {
        const page = await s.page();
        let png: Buffer;
        if (a.selector) {
          const el = await findElement(page, a.selector, m.elementWaitMs);
          if (!el) return notFound(a.selector);
          png = await el.screenshot({ type: 'png', timeout: m.navigationTimeoutMs });
        } else {
          png = await page.screenshot({ type: 'png', fullPage: !!a.full_page, timeout: m.navigationTimeoutMs });
        }
        const what = a.selector ? `element ${a.selector}` : a.full_page ? 'full page' : 'viewport';
        try {
          const ref = await store.addBytes(new Uint8Array(png), { name: `screenshot-${++shots}.png`, mime: 'image/png', source: 'browser_screenshot', signal: ctx.signal });
          return okResult(`image attached: ${ref.name} (${what} of ${page.url()}, ${ref.width}x${ref.height})`, { images: [ref] });
        } catch (e) {
          if (e instanceof ImageError) return errorResult(e.code === 'too_large' ? 'too_large' : 'failed', e.message);
          throw e;
        }
      });
    },
  });
}
