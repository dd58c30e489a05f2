/** The logging seam: the host hands a LogOutputChannel, the CLI stderr, tests a recorder. */
export interface Logger {
  error(msg: string): void;
  warn(msg: string): void;
  info(msg: string): void;
  debug(msg: string): void;
}

export const silentLogger: Logger = { error() {}, warn() {}, info() {}, debug() {} };

export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const at = (level: string) => (msg: string) => void lines.push(`${level}: ${msg}`);
  return { lines, error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}
