/**
 * playwright-core, loaded on first use so activation stays light. It is not bundled: from
 * source (tests, tsx) it comes from node_modules; in the packaged extension and CLI it ships
 * beside the bundle as dist/node_modules/playwright-core.
 */
import * as path from 'node:path';
import type * as Playwright from 'playwright-core';

export type PlaywrightModule = typeof Playwright;

let cached: PlaywrightModule | undefined;

function isMissing(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND';
}

export class PlaywrightMissingError extends Error {}

/** Tries the normal resolution, then `<dir of the bundle>/node_modules/playwright-core`. */
export function loadPlaywright(): PlaywrightModule {
  if (cached) return cached;
  const shipped = path.join(__dirname, 'node_modules', 'playwright-core');
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- resolved at run time: the bundle leaves playwright-core external
    cached = require('playwright-core') as PlaywrightModule;
  } catch (first) {
    if (!isMissing(first)) throw first;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a path known only at run time
      cached = require(shipped) as PlaywrightModule;
    } catch (second) {
      if (!isMissing(second)) throw second;
      throw new PlaywrightMissingError(
        `the browser tools need the playwright-core package, which is missing from this installation ` +
          `(looked for "playwright-core" on the module path and in ${shipped}). Reinstall Snowpea, or run npm install in its source folder.`,
      );
    }
  }
  return cached;
}
