import * as fs from 'node:fs';

/** What a non-regular, non-folder file is ("a FIFO"), or undefined for regular files, folders and links. */
export function specialKind(st: fs.Stats): string | undefined {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  return undefined;
}

/** `not a regular file: src/pipe is a FIFO` for FIFOs, sockets and devices (reading them can block forever); undefined otherwise. */
export function notRegularFileMessage(display: string, st: fs.Stats): string | undefined {
  const kind = specialKind(st);
  return kind ? `not a regular file: ${display} is ${kind}` : undefined;
}

/** Opens for reading without blocking on a FIFO that has no writer (the flag is a no-op for regular files; absent on Windows). */
export const READ_NONBLOCK = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);
