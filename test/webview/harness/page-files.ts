import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';

/**
 * Files made inside the page and handed to the composer the way a user would: a paste
 * (a real ClipboardEvent carrying the files), a drop (a DragEvent with a DataTransfer) or the
 * attach button's file input. The page side is page-files.js.
 */

const pageSource = fs.readFileSync(path.join(__dirname, 'page-files.js'), 'utf8');

export interface FileSpec {
  name: string;
  /** A picture of width x height drawn on a canvas and encoded as `type`. */
  width?: number;
  height?: number;
  type: string;
  /** Alpha of the drawn picture (1: opaque). */
  alpha?: number;
  /** Instead of a picture: this many zero bytes. */
  zeroBytes?: number;
  /** Instead of a picture: this text. */
  text?: string;
  /** Random pixels instead of a gradient (hard to compress: a large file). */
  noise?: boolean;
}

export interface DeliverArgs {
  how: 'paste' | 'drop' | 'pick';
  files: FileSpec[];
  /** Text on the clipboard besides the files (paste only). */
  clipboardText?: string;
}

/** Delivers the files in the page; returns each file's size and, up to 1 MB, its base64, so the test can compare what was sent. */
export function deliverFiles(page: Page, args: DeliverArgs): Promise<Array<{ size: number; base64: string }>> {
  return page.evaluate(`${pageSource}\ndeliverFiles(${JSON.stringify(args)})`) as Promise<Array<{ size: number; base64: string }>>;
}
