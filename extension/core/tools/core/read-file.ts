import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { notRegularFileMessage } from '../file-kind';
import { resolveToolPath } from '../paths';
import { decodeText, looksBinary, numbered, splitLines } from '../text';
import { defineTool, errorResult, okResult } from '../types';
import { notFoundResult } from './missing';
import { TOOL } from '../names';

export const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp']);
/** Longest line shown whole; longer lines are clipped with a marker. */
export const MAX_LINE_CHARS = 2000;
/** A page stops early when it grows past this many characters, so one read cannot flood the context. */
const MAX_PAGE_CHARS = 200_000;
const MAX_FILE_BYTES = 50 * 1024 * 1024;

const input = z.strictObject({
  path: z.string().min(1).describe('Workspace-relative or absolute path.'),
  offset: z.number().int().min(1).optional().describe('First line, 1-based.'),
  limit: z.number().int().min(1).optional().describe('Lines to return (default: tools.readMaxLines).'),
});

export const readFileTool = defineTool({
  name: TOOL.read_file,
  traits: { readOnly: true, repeat: 'file-read', subagents: true, images: false },
  group: 'core',
  permission: 'read',
  deferred: false,
  summary: 'Read a text file with line numbers, paged by lines.',
  description:
    'Read a text file; lines come numbered (`   12\\tcode`). Page long files with offset and limit. For images use view_image. An unchanged file needs no re-read.',
  input,
  describeCall: (a) => `read ${a.path}${a.offset || a.limit ? ` (lines ${a.offset ?? 1}${a.limit ? `-${(a.offset ?? 1) + a.limit - 1}` : '-'})` : ''}`,
  approval: (a) => ({ paths: [{ path: a.path, write: false }] }),
  async run(args, ctx) {
    const r = resolveToolPath(ctx.workspaceRoot, args.path);
    if (!r.exists) return notFoundResult(ctx.workspaceRoot, r);
    const st = await fs.promises.stat(r.real);
    if (st.isDirectory()) return errorResult('invalid_arguments', `${r.display} is a folder, not a file; use list_dir or glob to see what it holds.`);
    const special = notRegularFileMessage(r.display, st);
    if (special) return errorResult('invalid_arguments', `${special}; read_file reads regular files only (reading it could wait forever).`);
    if (IMAGE_EXTENSIONS.has(path.extname(r.real).toLowerCase())) {
      return okResult(`${r.display} is an image (${st.size} bytes); use view_image to look at it`, { realPath: r.real });
    }
    if (st.size > MAX_FILE_BYTES) {
      return errorResult('too_large', `${r.display} is ${st.size} bytes, more than read_file reads (${MAX_FILE_BYTES}); use grep, or shell with head/tail/sed -n, to look at parts of it.`);
    }
    const file = await ctx.fileReader.read(r.real, ctx.signal);
    if (looksBinary(file.bytes)) {
      return errorResult('binary_file', `${r.display} is a binary file (${file.bytes.length} bytes); read_file shows text only. Use shell (file, xxd | head) to inspect it.`);
    }
    const { text, encodingNote } = decodeText(file.bytes);
    const lines = splitLines(text);
    const total = lines.length;
    const meta = { sha256: file.sha256, realPath: r.real, totalLines: total };
    if (total === 0) return okResult(`${r.display} is empty (0 lines)`, meta);
    const offset = args.offset ?? 1;
    if (offset > total) {
      return errorResult('invalid_arguments', `offset ${offset} is past the end of ${r.display}, which has ${total} lines; use an offset from 1 to ${total}.`);
    }
    const limit = args.limit ?? ctx.settings['tools.readMaxLines'];
    const last = Math.min(total, offset + limit - 1);
    const out: string[] = [];
    let chars = 0;
    let end = offset - 1;
    for (let i = offset; i <= last && (chars < MAX_PAGE_CHARS || i === offset); i++) {
      const line = lines[i - 1];
      const shown = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… [line clipped: ${line.length - MAX_LINE_CHARS} more chars; use grep or shell to see all of it]` : line;
      const row = numbered(i, shown);
      out.push(row);
      chars += row.length + 1;
      end = i;
    }
    if (end < total) out.push(`[showing lines ${offset}-${end} of ${total}; to read more, call read_file with offset=${end + 1}]`);
    if (encodingNote) out.push(`[${r.display}: ${encodingNote}]`);
    return okResult(out.join('\n'), meta);
  },
});
