import * as fs from 'node:fs';
import * as path from 'node:path';

/** The "Snowpea" output channel's file in a session's user-data folder (logs/<start>/exthost<n>/snowpea.snowpea/Snowpea.log); undefined before its first line. */
function logFile(sessionDir: string): string | undefined {
  const logs = path.join(sessionDir, 'user-data', 'logs');
  if (!fs.existsSync(logs)) return undefined;
  for (const start of fs.readdirSync(logs).sort().reverse()) {
    for (const host of fs.readdirSync(path.join(logs, start)).filter((d) => d.startsWith('exthost'))) {
      const file = path.join(logs, start, host, 'snowpea.snowpea', 'Snowpea.log');
      if (fs.existsSync(file)) return file;
    }
  }
  return undefined;
}

/** The Snowpea log's text so far ('' before it exists). */
export function snowpeaLog(sessionDir: string): string {
  const file = logFile(sessionDir);
  return file ? fs.readFileSync(file, 'utf8') : '';
}

/** Waits until a line of the Snowpea log matches (the log reaches its file a moment after it is written); returns that line. */
export async function waitForLogLine(sessionDir: string, pattern: RegExp, timeoutMs = 15_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const line = snowpeaLog(sessionDir).split('\n').find((l) => pattern.test(l));
    if (line) return line;
    if (Date.now() > until) throw new Error(`no line matching ${pattern} in the Snowpea log of ${sessionDir} within ${timeoutMs} ms:\n${snowpeaLog(sessionDir)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
