import { z } from 'zod';
import type { BrowserManager } from '../../browser/browser-manager';
import { pageHeader } from '../../browser/page-text';
import { defineTool, okResult } from '../types';
import { findElement, notFound, onSessionPage, refusalSince } from './common';
import { TOOL } from '../names';

const input = z.strictObject({
  selector: z.string().min(1).describe('CSS selector of the field (input, textarea or contenteditable); the first match is used.'),
  text: z.string().describe('The text to put in the field; it replaces what the field held.'),
  submit: z.boolean().optional().describe('Press Enter after filling the field (submits most forms).'),
});

export function browserTypeTool(m: BrowserManager) {
  return defineTool({
    name: TOOL.browser_type,
    traits: { readOnly: false, repeat: 'plain', subagents: true, images: false },
    group: 'browser',
    permission: 'network',
    deferred: true,
    summary: 'Fill a form field, optionally pressing Enter.',
    description:
      'Fill the first field matching a CSS selector with text (replacing its content), and press Enter when submit is true. ' +
      'Returns the url and title afterwards; a page a submit lands on is checked by the URL policy again, and sending it to a site not visited yet this session asks the user (denied if they decline).',
    input,
    describeCall: (a) => `type into ${a.selector}${a.submit ? ' and submit' : ''}`,
    approval: () => ({ skip: true }),
    async run(a, ctx) {
      return onSessionPage(m, ctx, { tool: 'browser_type', create: false, doing: `typing into ${a.selector}` }, async (s, mark) => {
        const field = await findElement(await s.page(), a.selector, m.elementWaitMs);
        if (!field) return notFound(a.selector);
        await field.fill(a.text);
        if (a.submit) await field.press('Enter');
        await s.settle();
        const refused = await refusalSince(s, mark, `Submitting ${a.selector}`);
        if (refused) return refused;
        const did = `Typed ${a.text.length} character(s) into ${a.selector}${a.submit ? ' and pressed Enter' : ''}`;
        return okResult(`${did}\n${await pageHeader(await s.page())}`);
      });
    },
  });
}
