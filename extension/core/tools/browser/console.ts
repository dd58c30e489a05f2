import { z } from 'zod';
import type { BrowserManager } from '../../browser/browser-manager';
import { formatConsoleReport } from '../../browser/console-log';
import { defineTool, okResult } from '../types';
import { onSessionPage } from './common';
import { TOOL } from '../names';

const input = z.strictObject({});

export function browserConsoleTool(m: BrowserManager) {
  return defineTool({
    name: TOOL.browser_console,
    traits: { readOnly: true, repeat: 'plain', subagents: true, images: false },
    group: 'browser',
    permission: 'network',
    deferred: true,
    summary: 'Return the page\'s console errors, warnings and uncaught exceptions since the last report.',
    description:
      'Return the console errors, warnings and uncaught exceptions the page logged since they were last reported (each is reported once; the last 50 are kept). ' +
      'Other browser tools already end with a "Console errors:" block when there are new ones.',
    input,
    describeCall: () => 'read the browser console',
    approval: () => ({ skip: true }),
    async run(_a, ctx) {
      return onSessionPage(m, ctx, { tool: 'browser_console', create: false, doing: 'reading the console' }, async (s) => {
        const lines = formatConsoleReport(s.console.take());
        if (!lines.length) return okResult(`No console errors, warnings or uncaught exceptions since the last report (page: ${s.currentUrl()}).`);
        return okResult(`Console errors, warnings and exceptions (page: ${s.currentUrl()}):\n${lines.join('\n')}`);
      });
    },
  });
}
