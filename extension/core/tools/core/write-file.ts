import { z } from 'zod';
import { resolveToolPath } from '../paths';
import { countLines, decodeText } from '../text';
import { defineTool, type ToolContext, type ToolResult } from '../types';
import { checkWritable, commitWrite, pathFacts, proposalOf, type PreparedWrite } from './write-target';
import { TOOL } from '../names';

const input = z.strictObject({
  path: z.string().min(1).describe('Workspace-relative or absolute path.'),
  content: z.string().describe('The complete new content.'),
});

const lines = (n: number) => `${n} line${n === 1 ? '' : 's'}`;

/** The whole new content against the file's current text (the editor's when open; empty for a new file). */
async function prepare(args: z.infer<typeof input>, ctx: ToolContext): Promise<PreparedWrite | ToolResult> {
  const r = resolveToolPath(ctx.workspaceRoot, args.path);
  const bad = checkWritable(r);
  if (bad) return bad;
  const current = r.exists ? decodeText((await ctx.fileReader.read(r.real, ctx.signal)).bytes).text : '';
  const after = countLines(args.content);
  return {
    proposal: { path: r.real, display: r.display, current, proposed: args.content, created: !r.exists },
    bom: '',
    facts: pathFacts(r),
    report: () => (r.exists ? `overwrote ${r.display} (${lines(countLines(current))} → ${lines(after)})` : `created ${r.display} (${lines(after)})`),
  };
}

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
  propose: async (args, ctx) => proposalOf(await prepare(args, ctx)),
  run: async (args, ctx, reviewed) => commitWrite(ctx, await prepare(args, ctx), reviewed),
});
