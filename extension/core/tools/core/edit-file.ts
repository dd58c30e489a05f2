import { z } from 'zod';
import { resolveToolPath } from '../paths';
import { decodeText, looksBinary, numbered, splitLines } from '../text';
import { defineTool, errorResult, type ToolContext, type ToolResult } from '../types';
import { notFoundResult } from './missing';
import { nearestRegions } from './similar-lines';
import { checkWritable, commitWrite, pathFacts, proposalOf, type PreparedWrite } from './write-target';
import { TOOL } from '../names';

const input = z.strictObject({
  path: z.string().min(1).describe('Workspace-relative or absolute path.'),
  old_string: z.string().min(1).describe('Exact text to replace, with enough context to be unique.'),
  new_string: z.string().describe('Replacement text.'),
  replace_all: z.boolean().optional().describe('Replace every occurrence.'),
});

const UTF8_BOM = [0xef, 0xbb, 0xbf];
const SNIPPET_LINES = 6;

/** Start offsets of the non-overlapping occurrences of `needle` in `text`. */
function occurrences(text: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) at.push(i);
  return at;
}

function lineOf(text: string, index: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The edit worked out against the file's current text (the editor's when open), or why it cannot be made. */
async function prepare(args: z.infer<typeof input>, ctx: ToolContext): Promise<PreparedWrite | ToolResult> {
  const r = resolveToolPath(ctx.workspaceRoot, args.path);
  if (!r.exists) return notFoundResult(ctx.workspaceRoot, r);
  const bad = checkWritable(r);
  if (bad) return bad;
  const file = await ctx.fileReader.read(r.real, ctx.signal);
  if (looksBinary(file.bytes)) return errorResult('binary_file', `${r.display} is a binary file; edit_file edits text only.`);
  const { text, encodingNote } = decodeText(file.bytes);
  if (encodingNote) return errorResult('failed', `${r.display} is ${encodingNote}; edit_file edits UTF-8 text only. Use shell (sed, iconv) for this file.`);
  if (args.old_string === args.new_string) return errorResult('invalid_arguments', 'old_string and new_string are the same; there is nothing to change.');
  let oldS = args.old_string;
  let newS = args.new_string;
  let at = occurrences(text, oldS);
  if (at.length === 0 && text.includes('\r\n') && !oldS.includes('\r')) {
    // The model writes \n; the file uses CRLF. Match and write in the file's own line endings.
    oldS = oldS.replace(/\n/g, '\r\n');
    newS = newS.replace(/\r?\n/g, '\r\n');
    at = occurrences(text, oldS);
  }
  if (at.length === 0) {
    const near = nearestRegions(splitLines(text), args.old_string);
    const hint = near.length
      ? ` The nearest similar text:\n${near.map((n) => `(line ${n.line}, ${Math.round(n.score * 100)}% similar)\n${n.text}`).join('\n')}\nCopy the exact text (read_file shows it) and try again.`
      : ' Nothing similar was found; read the file again to see its current content.';
    return errorResult('no_match', `old_string was not found in ${r.display}.${hint}`);
  }
  if (at.length > 1 && !args.replace_all) {
    const lines = at.map((i) => lineOf(text, i));
    return errorResult(
      'multiple_matches',
      `old_string occurs ${at.length} times in ${r.display} (at lines ${lines.join(', ')}); include more surrounding lines to make it unique, or set replace_all to true.`,
    );
  }
  const updated = text.split(oldS).join(newS);
  const bom = file.bytes.length >= 3 && UTF8_BOM.every((b, i) => file.bytes[i] === b) ? '\ufeff' : '';
  const report = () => {
    const first = lineOf(text, at[0]);
    const removed = splitLines(oldS).length;
    const added = splitLines(newS).length;
    const newLines = splitLines(updated);
    const snippet = newLines.slice(first - 1, first - 1 + Math.min(Math.max(added, 1), SNIPPET_LINES)).map((t, k) => numbered(first + k, t));
    const more = added > SNIPPET_LINES ? [`[… ${added - SNIPPET_LINES} more new lines]`] : [];
    const head =
      at.length === 1
        ? `edited ${r.display}: replaced ${removed} line(s) at line ${first} with ${added} line(s); the file now has ${newLines.length} lines`
        : `edited ${r.display}: replaced ${at.length} occurrences (first at line ${first}); the file now has ${newLines.length} lines`;
    return [head, ...snippet, ...more].join('\n');
  };
  return { proposal: { path: r.real, display: r.display, current: text, proposed: updated, created: false }, bom, facts: pathFacts(r), report };
}

export const editFileTool = defineTool({
  name: TOOL.edit_file,
  traits: { readOnly: false, repeat: 'plain', subagents: true, images: false },
  group: 'core',
  permission: 'write',
  deferred: false,
  summary: 'Replace exact text in a file.',
  description:
    'Replace exact text in a file. old_string must match exactly (whitespace included) and be unique unless replace_all; read the file first.',
  input,
  describeCall: (a) => `edit ${a.path}`,
  approval: (a) => ({ paths: [{ path: a.path, write: true }] }),
  propose: async (args, ctx) => proposalOf(await prepare(args, ctx)),
  run: async (args, ctx, reviewed) => commitWrite(ctx, await prepare(args, ctx), reviewed),
});
