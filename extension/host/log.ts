import * as vscode from 'vscode';
import type { Logger } from '../core/log';

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';
const RANK: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

/**
 * The "Snowpea" LogOutputChannel as the core's Logger. A message is written when both the setting
 * snowpea.log.level and the channel's own level (Developer: Set Log Level) let it through. No
 * secrets are ever logged; request details only at debug.
 */
export function createLog(level: () => LogLevel = () => 'info'): { channel: vscode.LogOutputChannel; logger: Logger } {
  const channel = vscode.window.createOutputChannel('Snowpea', { log: true });
  const allows = (l: LogLevel) => RANK[l] <= RANK[level()];
  const logger: Logger = {
    error: (m) => allows('error') && channel.error(m),
    warn: (m) => allows('warn') && channel.warn(m),
    info: (m) => allows('info') && channel.info(m),
    debug: (m) => allows('debug') && channel.debug(m),
  };
  return { channel, logger };
}
