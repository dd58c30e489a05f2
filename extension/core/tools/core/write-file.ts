import { z } from 'zod';
import { resolveToolPath } from '../paths';
import { countLines, decodeText } from '../text';
import { defineTool, okResult } from '../types';
import { checkWritable, writerOf } from './write-target';
import { TOOL } from '../names';

const input = z.strictObject({
  path: z.string().min(1).describe('Workspace-relative or absolute path.'),
  content: z.string().describe('The complete new content.'),
});

const lines = (n: number) => `${n} line${n === 1 ? '' : 's'}`;

export const writeFileTool = defineTool({
  name: TOOL.write_file,
  traits: { readOnly: false, repeat: 'plain', subagents: true, images: false },
  group: 'core',
  permission: 'write',
  deferred: false,
  summary: 'Create a file or replace its whole content.',
  description:
    'Create or overwrite a whole file (and missing folders). To change part of a file use edit_file.',
  input,
  describeCall: (a) => `write ${a.path}`,
  approval: (a) => ({ summary: `write ${a.path} (${lines(countLines(a.content))})`, paths: [{ path: a.path, write: true }] }),
  async run(args, ctx) {
    const r = resolveToolPath(ctx.workspaceRoot, args.path);
    const bad = checkWritable(r);
    if (bad) return bad;
    let before: number | undefined;
    if (r.exists) before = countLines(decodeText((await ctx.fileReader.read(r.real, ctx.signal)).bytes).text);
    await writerOf(ctx).write(r.real, new TextEncoder().encode(args.content), ctx.signal);
    const after = countLines(args.content);
    const what = before === undefined ? `created ${r.display} (${lines(after)})` : `overwrote ${r.display} (${lines(before)} → ${lines(after)})`;
    return okResult(what, { writtenPaths: [r.real] });
  },
});
