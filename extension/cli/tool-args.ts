import * as fs from 'node:fs';
import * as path from 'node:path';

/** Reads all of stdin as text. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The JSON text of `tools call --args`: inline JSON, `@FILE` (read from FILE, relative to `cwd`)
 * or `-` (read from stdin), so arguments larger than the command line allows can be passed.
 * Absent: `{}`. A file that cannot be read throws an error naming it.
 */
export async function toolArgsText(value: string | undefined, cwd: string): Promise<string> {
  if (value === undefined) return '{}';
  if (value === '-') return readStdin();
  if (!value.startsWith('@')) return value;
  const file = value.slice(1);
  if (!file) throw new Error('--args @FILE needs a file name after the @');
  try {
    return fs.readFileSync(path.resolve(cwd, file), 'utf8');
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why = err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'it is a folder' : err.message;
    throw new Error(`could not read the --args file ${file}: ${why}`, { cause: e });
  }
}
