import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { notRegularFileMessage, READ_NONBLOCK } from './file-kind';
import { writeNoFollow } from './no-follow-write';
import type { FileReader, FileWriter } from './types';

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Reads a file from disk, refusing FIFOs, sockets and devices (checked before opening, and again on
 * the opened handle, which is opened non-blocking) so a read can never wait forever (red-team L8).
 */
export async function readDiskFile(absPath: string, signal?: AbortSignal): Promise<Uint8Array> {
  const special = notRegularFileMessage(absPath, await fs.promises.stat(absPath));
  if (special) throw new Error(special);
  const fh = await fs.promises.open(absPath, READ_NONBLOCK);
  try {
    const again = notRegularFileMessage(absPath, await fh.stat());
    if (again) throw new Error(again);
    return new Uint8Array(await fh.readFile({ signal }));
  } finally {
    await fh.close();
  }
}

/** Reads files from disk (the CLI and tests); the VS Code host supplies an editor-aware reader with the same interface. */
export function createDiskFileReader(): FileReader {
  return {
    async read(absPath, signal) {
      const bytes = await readDiskFile(absPath, signal);
      return { bytes, sha256: sha256Hex(bytes), fromEditor: false };
    },
  };
}

/** Writes files to disk, creating parent folders, never through a link at the file's name (see writeNoFollow). */
export function createDiskFileWriter(): FileWriter {
  return {
    async write(absPath, bytes, signal, opts) {
      await writeNoFollow(absPath, bytes, { created: opts?.created, signal });
    },
  };
}
