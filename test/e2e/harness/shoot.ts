import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { RESULTS_DIR } from './paths';

/** Where screenshots go: $SNOWPEA_SCREENSHOTS_DIR (`npm run screenshots` sets media/screenshots), else test-results/e2e/screenshots. */
export const SHOTS_DIR = process.env.SNOWPEA_SCREENSHOTS_DIR ? path.resolve(process.env.SNOWPEA_SCREENSHOTS_DIR) : path.join(RESULTS_DIR, 'screenshots');

/** A README screenshot must stay small (the repository carries every version of it). */
export const MAX_SHOT_BYTES = 150 * 1024;

export interface ShotOptions {
  /** The shot spans this element's full width and never leaves it (e.g. the side bar). */
  within: Locator;
  /** Space kept above and below the regions, in CSS pixels (default 8). */
  pad?: number;
}

/**
 * Saves `<SHOTS_DIR>/<name>.png`: the band of `within` (full width) from the top of the first
 * region to the bottom of the last, padded. Regions may live in webview frames (their boxes are in
 * page coordinates). The mouse is moved off the side bar first so no hover highlight is captured,
 * and animations are stopped (spinners shot the same every run). Returns the file and its size.
 */
export async function shoot(page: Page, name: string, regions: Locator[], { within, pad = 8 }: ShotOptions): Promise<{ file: string; bytes: number }> {
  const outer = await boxOf(within);
  const boxes = await Promise.all(regions.map(boxOf));
  const top = Math.max(outer.y, Math.min(...boxes.map((b) => b.y)) - pad);
  const bottom = Math.min(outer.y + outer.height, Math.max(...boxes.map((b) => b.y + b.height)) + pad);
  await page.mouse.move(page.viewportSize()!.width - 5, page.viewportSize()!.height / 2);
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  const file = path.join(SHOTS_DIR, `${name}.png`);
  await page.screenshot({
    path: file,
    clip: { x: Math.round(outer.x), y: Math.round(top), width: Math.round(outer.width), height: Math.round(bottom - top) },
    animations: 'disabled',
    caret: 'hide',
    scale: 'css',
  });
  return { file, bytes: fs.statSync(file).size };
}

async function boxOf(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  await locator.waitFor({ state: 'visible' });
  const box = await locator.boundingBox();
  if (!box) throw new Error(`no bounding box for ${locator.toString()} (not rendered?)`);
  return box;
}

/** Drags the sash between the side bar and the editor until the side bar is `width` CSS pixels wide. */
export async function setSidebarWidth(page: Page, width: number): Promise<void> {
  const sidebar = await boxOf(page.locator('.part.sidebar'));
  const edge = sidebar.x + sidebar.width;
  const y = sidebar.y + sidebar.height / 2;
  await page.mouse.move(edge, y);
  await page.mouse.down();
  await page.mouse.move(edge + (width - sidebar.width) / 2, y, { steps: 4 });
  await page.mouse.move(sidebar.x + width, y, { steps: 4 });
  await page.mouse.up();
  const now = await boxOf(page.locator('.part.sidebar'));
  if (Math.abs(now.width - width) > 1) throw new Error(`the side bar is ${now.width} px wide after the drag, not ${width}`);
}
