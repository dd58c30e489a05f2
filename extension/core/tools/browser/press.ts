import { z } from 'zod';
import type { Page } from 'playwright-core';
import type { BrowserManager } from '../../browser/browser-manager';
import { pageHeader } from '../../browser/page-text';
import { defineTool, errorResult, okResult } from '../types';
import { onSessionPage, refusalSince } from './common';
import { TOOL } from '../names';

const MAX_HOLD_MS = 10_000;

const input = z.strictObject({
  key: z.string().min(1).describe('A key or combo, as Playwright names them: "w", "ArrowUp", "Space", "Enter", "Escape", "Control+a", "Shift+Tab".'),
  hold_ms: z.number().int().min(1).max(MAX_HOLD_MS).optional().describe('Hold the key (or combo) down this many milliseconds before releasing it, e.g. to move in a game.'),
});

/** "Control+a" -> ["Control", "a"]; "+" and "Shift++" keep their plus key. */
export function splitCombo(key: string): string[] {
  if (key === '+') return ['+'];
  if (key.endsWith('++')) return [...key.slice(0, -2).split('+'), '+'];
  return key.split('+');
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** Presses every key of the combo in order, holds, and releases them in reverse (always, even when cancelled). */
async function hold(page: Page, keys: string[], ms: number, signal: AbortSignal): Promise<void> {
  const down: string[] = [];
  try {
    for (const k of keys) {
      await page.keyboard.down(k);
      down.push(k);
    }
    await sleep(ms, signal);
  } finally {
    for (const k of down.reverse()) await page.keyboard.up(k).catch(() => undefined);
  }
}

export function browserPressTool(m: BrowserManager) {
  return defineTool({
    name: TOOL.browser_press,
    traits: { readOnly: false, repeat: 'plain', subagents: true, images: false },
    group: 'browser',
    permission: 'network',
    deferred: true,
    summary: 'Press a key or combo on the page (hold_ms holds it down).',
    description:
      'Press a key or key combo on the current page, without a selector: it goes to the focused element or the page (games, shortcuts). ' +
      'Examples: "w", "ArrowUp", "Space", "Enter", "Control+a". hold_ms keeps it held down that long, so movement (WASD) can be exercised.',
    input,
    describeCall: (a) => `press ${a.key}${a.hold_ms ? ` for ${a.hold_ms} ms` : ''}`,
    approval: () => ({ skip: true }),
    async run(a, ctx) {
      return onSessionPage(m, ctx, { tool: 'browser_press', create: false, doing: `pressing ${a.key}` }, async (s, mark) => {
        const page = await s.page();
        const keys = splitCombo(a.key);
        try {
          if (a.hold_ms) await hold(page, keys, a.hold_ms, ctx.signal);
          else await page.keyboard.press(a.key);
        } catch (e) {
          if (/Unknown key/i.test((e as Error).message)) {
            return errorResult('invalid_arguments', `${JSON.stringify(a.key)} is not a key Playwright knows; use names such as "a", "ArrowUp", "Space", "Enter", "Control+a"`);
          }
          throw e;
        }
        await s.settle();
        const refused = await refusalSince(s, mark, `Pressing ${a.key}`);
        if (refused) return refused;
        const did = a.hold_ms ? `Held ${a.key} for ${a.hold_ms} ms` : `Pressed ${a.key}`;
        return okResult(`${did}\n${await pageHeader(await s.page())}`);
      });
    },
  });
}
