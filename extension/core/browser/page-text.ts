/**
 * What the model reads of a page: url, title, the visible text (capped) and, for snapshots,
 * the elements it can act on with a CSS selector for each. The in-page code is plain strings
 * so no build step can rewrite it.
 */
import type { Page } from 'playwright-core';

export const PAGE_TEXT_CAP = 12_000;
const ELEMENTS_CAP = 40;

export function capText(text: string, cap = PAGE_TEXT_CAP): string {
  if (text.length <= cap) return text;
  return `${text.slice(0, cap)}\n…[truncated: ${text.length - cap} more chars; scroll and call browser_snapshot, or open a more specific url]`;
}

const TEXT_SCRIPT = `(() => {
  const t = document.body ? document.body.innerText : (document.documentElement ? document.documentElement.innerText || '' : '');
  return t.replace(/[ \\t]+\\n/g, '\\n').replace(/\\n{3,}/g, '\\n\\n').trim();
})()`;

const SCROLL_SCRIPT = `(() => {
  const e = document.scrollingElement || document.documentElement;
  return { y: Math.round(window.scrollY), height: Math.round(e ? e.scrollHeight : 0), viewport: window.innerHeight };
})()`;

const ELEMENTS_SCRIPT = `((cap) => {
  const q = (s) => JSON.stringify(s);
  const out = [];
  const nodes = document.querySelectorAll('a[href], button, input, select, textarea, [role=button], [onclick], [contenteditable=true]');
  for (const el of nodes) {
    if (out.length >= cap) break;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (el.type === 'hidden') continue;
    const tag = el.tagName.toLowerCase();
    const text = (el.innerText || el.value || el.getAttribute('aria-label') || el.getAttribute('placeholder') || '').trim().replace(/\\s+/g, ' ').slice(0, 60);
    let sel;
    if (el.id && /^[A-Za-z][\\w-]*$/.test(el.id)) sel = '#' + el.id;
    else if (el.getAttribute('name')) sel = tag + '[name=' + q(el.getAttribute('name')) + ']';
    else if (tag === 'a' && el.getAttribute('href') && el.getAttribute('href').length < 80) sel = 'a[href=' + q(el.getAttribute('href')) + ']';
    else if (text && !text.includes('"')) sel = tag + ':has-text(' + q(text) + ')';
    else continue;
    const kind = tag === 'input' ? 'input type=' + (el.type || 'text') : tag;
    out.push(kind + ' ' + sel + (text && !sel.includes(text) ? ' "' + text + '"' : ''));
  }
  return out;
})`;

export interface PageScroll {
  y: number;
  height: number;
  viewport: number;
}

export async function pageText(page: Page): Promise<string> {
  return (await page.evaluate(TEXT_SCRIPT)) as string;
}

export async function pageScroll(page: Page): Promise<PageScroll> {
  return (await page.evaluate(SCROLL_SCRIPT)) as PageScroll;
}

export async function pageElements(page: Page): Promise<string[]> {
  return (await page.evaluate(`${ELEMENTS_SCRIPT}(${ELEMENTS_CAP})`)) as string[];
}

/** `Title: …` and the page url, one line each. */
export async function pageHeader(page: Page): Promise<string> {
  const title = await page.title().catch(() => '');
  return `URL: ${page.url()}\nTitle: ${title || '(none)'}`;
}

/** Header, then the capped visible text. */
export async function describePage(page: Page, cap = PAGE_TEXT_CAP): Promise<string> {
  const text = await pageText(page).catch(() => '');
  return `${await pageHeader(page)}\n\n${text ? capText(text, cap) : '(the page shows no text)'}`;
}
