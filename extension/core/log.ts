/** The logging seam: the host hands a LogOutputChannel, the CLI stderr, tests a recorder (test/fixtures/recording-logger.ts). */
export interface Logger {
  error(msg: string): void;
  warn(msg: string): void;
  info(msg: string): void;
  debug(msg: string): void;
}

export const silentLogger: Logger = { error() {}, warn() {}, info() {}, debug() {} };
