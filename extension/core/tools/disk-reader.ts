import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FileReader, FileWriter } from './types';

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Reads files from disk (the CLI and tests); the VS Code host supplies an editor-aware reader with the same interface. */
export function createDiskFileReader(): FileReader {
  return {
    async read(absPath, signal) {
      const bytes = new Uint8Array(await fs.promises.readFile(absPath, { signal }));
      return { bytes, sha256: sha256Hex(bytes), fromEditor: false };
    },
  };
}

/** Writes files to disk, creating parent folders. */
export function createDiskFileWriter(): FileWriter {
  return {
    async write(absPath, bytes, signal) {
      await fs.promises.mkdir(path.dirname(absPath), { recursive: true });
      await fs.promises.writeFile(absPath, bytes, { signal });
    },
  };
}
