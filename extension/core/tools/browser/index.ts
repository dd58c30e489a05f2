import type { BrowserManager } from '../../browser/browser-manager';
import type { AnyTool } from '../types';
import { browserClickTool } from './click';
import { browserConsoleTool } from './console';
import { browserNavigateTool } from './navigate';
import { browserPressTool } from './press';
import { browserScreenshotTool } from './screenshot';
import { browserScrollTool } from './scroll';
import { browserSnapshotTool } from './snapshot';
import { browserTypeTool } from './type';

/** The deferred `browser` group (8 tools), driving the pages of one BrowserManager. */
export function createBrowserTools(m: BrowserManager): AnyTool[] {
  return [
    browserNavigateTool(m),
    browserClickTool(m),
    browserTypeTool(m),
    browserPressTool(m),
    browserScrollTool(m),
    browserSnapshotTool(m),
    browserScreenshotTool(m),
    browserConsoleTool(m),
  ] as AnyTool[];
}
