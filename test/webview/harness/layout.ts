import type { Page } from 'playwright-core';

/**
 * Layout measurements in the page, for tests at side-bar sizes. The page code is passed as a
 * string: the test transpiler would wrap inner functions in helpers the page lacks.
 */

export interface Overflow {
  scrollWidth: number;
  clientWidth: number;
  /** Elements whose box leaves the viewport sideways (`tag.class [left, right]`). */
  outside: string[];
  /** Boxes (other than code blocks) that scroll sideways. */
  sideways: string[];
}

/**
 * Elements under `root` (default: the whole body) whose box leaves the viewport sideways, and
 * boxes that scroll sideways. Only a code block (`pre`) may scroll sideways: its lines are kept
 * whole, and it scrolls inside its own box (boxes that clip with an ellipsis do not scroll).
 */
export function overflowing(page: Page, root = 'body'): Promise<Overflow> {
  return page.evaluate(`(() => {
    const doc = document.scrollingElement;
    const width = document.documentElement.clientWidth;
    const name = (el) => el.tagName.toLowerCase() + (typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
    const outside = [];
    const sideways = [];
    for (const top of document.querySelectorAll(${JSON.stringify(root)})) {
      for (const el of [top, ...top.querySelectorAll('*')]) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) continue;
        const inPre = !!el.parentElement && !!el.parentElement.closest('pre');
        if (!inPre && (r.right > width + 0.5 || r.left < -0.5)) outside.push(name(el) + ' [' + Math.round(r.left) + ', ' + Math.round(r.right) + ']');
        const s = getComputedStyle(el);
        if (el.tagName !== 'PRE' && (s.overflowX === 'auto' || s.overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1) sideways.push(name(el) + ' scrolls ' + el.scrollWidth + ' > ' + el.clientWidth);
      }
    }
    return { scrollWidth: doc.scrollWidth, clientWidth: doc.clientWidth, outside, sideways };
  })()`);
}

/** Where the first element matching `selector` is, against the viewport; null when there is none. */
export function boxInViewport(page: Page, selector: string): Promise<{ top: number; bottom: number; left: number; right: number; width: number; height: number; viewWidth: number; viewHeight: number } | null> {
  return page.evaluate(`(() => {
    const el = document.querySelector(${JSON.stringify(selector)});
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height, viewWidth: document.documentElement.clientWidth, viewHeight: document.documentElement.clientHeight };
  })()`);
}

/**
 * Whether `text` inside the first element matching `selector` is drawn where the reader can see
 * it: the rectangle of that text lies inside every clipping ancestor (an ellipsis box, a scroller)
 * and the viewport. Returns why not, or '' when it is shown.
 */
export function textHidden(page: Page, selector: string, text: string): Promise<string> {
  return page.evaluate(`(() => {
    const root = document.querySelector(${JSON.stringify(selector)});
    if (!root) return 'no element ' + ${JSON.stringify(selector)};
    const wanted = ${JSON.stringify(text)};
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    let node;
    while ((node = walker.nextNode())) {
      const at = node.data.indexOf(wanted);
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + wanted.length);
      const rects = [...range.getClientRects()];
      if (!rects.length) return 'the text has no box';
      const clips = [{ left: 0, top: 0, right: document.documentElement.clientWidth, bottom: document.documentElement.clientHeight, name: 'the viewport' }];
      for (let el = node.parentElement; el; el = el.parentElement) {
        const s = getComputedStyle(el);
        if (s.overflowX !== 'visible' || s.overflowY !== 'visible') {
          const r = el.getBoundingClientRect();
          clips.push({ left: r.left, top: r.top, right: r.right, bottom: r.bottom, name: el.tagName.toLowerCase() + '.' + el.className });
        }
      }
      for (const r of rects) {
        for (const c of clips) {
          if (r.left < c.left - 0.5 || r.right > c.right + 0.5 || r.top < c.top - 0.5 || r.bottom > c.bottom + 0.5) {
            return '"' + wanted + '" [' + Math.round(r.left) + ', ' + Math.round(r.right) + '] x [' + Math.round(r.top) + ', ' + Math.round(r.bottom) + '] is cut by ' + c.name + ' [' + Math.round(c.left) + ', ' + Math.round(c.right) + '] x [' + Math.round(c.top) + ', ' + Math.round(c.bottom) + ']';
          }
        }
      }
      return '';
    }
    return 'no text "' + wanted + '" in ' + ${JSON.stringify(selector)} + ': ' + JSON.stringify(root.textContent);
  })()`);
}

/** How many lines the text of each element matching `selector` takes (distinct line boxes of its text). */
export function textLines(page: Page, selector: string): Promise<number[]> {
  return page.evaluate(`(() => {
    return [...document.querySelectorAll(${JSON.stringify(selector)})].map((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const tops = [];
      for (const r of range.getClientRects()) {
        if (r.width === 0) continue;
        if (!tops.some((t) => Math.abs(t - r.top) < r.height / 2)) tops.push(r.top);
      }
      return tops.length;
    });
  })()`);
}

/** Elements matching `selector` whose text does not fit their box (`scrollWidth > clientWidth`): `text (scrollWidth > clientWidth)`. */
export function clippedText(page: Page, selector: string): Promise<string[]> {
  return page.evaluate(`(() => [...document.querySelectorAll(${JSON.stringify(selector)})]
    .filter((el) => el.scrollWidth > el.clientWidth)
    .map((el) => JSON.stringify(el.textContent) + ' (' + el.scrollWidth + ' > ' + el.clientWidth + ')'))()`);
}
