import * as vscode from 'vscode';
import type { Logger } from '../core/log';

/** The "Snowpea" LogOutputChannel as the core's Logger. No secrets or prompts are logged unless debug is on. */
export function createLog(): { channel: vscode.LogOutputChannel; logger: Logger } {
  const channel = vscode.window.createOutputChannel('Snowpea', { log: true });
  const logger: Logger = {
    error: (m) => channel.error(m),
    warn: (m) => channel.warn(m),
    info: (m) => channel.info(m),
    debug: (m) => channel.debug(m),
  };
  return { channel, logger };
}
