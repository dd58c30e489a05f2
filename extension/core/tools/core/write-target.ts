import * as fs from 'node:fs';
import { createDiskFileWriter } from '../disk-reader';
import type { ResolvedPath } from '../paths';
import { errorResult, okResult, type FileWriter, type ReviewedWrite, type ToolContext, type ToolResult, type WriteProposal } from '../types';
import { userChangeNote } from './proposal';
import { writeNotingProblems } from './problems-after-write';

const diskWriter = createDiskFileWriter();

/** The writer for this context: the host's (editor-aware) one when given, else the disk. */
export function writerOf(ctx: ToolContext): FileWriter {
  return ctx.fileWriter ?? diskWriter;
}

/** Refuses writing over a folder; undefined when the target can be written. */
export function checkWritable(r: ResolvedPath): ToolResult | undefined {
  if (r.exists && fs.statSync(r.real).isDirectory()) {
    return errorResult('invalid_arguments', `${r.display} is a folder; give a file path.`);
  }
  return undefined;
}

/** A write worked out but not done: what the user would review, the BOM to keep, and the model's report of it as proposed. */
export interface PreparedWrite {
  proposal: WriteProposal;
  /** '\ufeff' when the file starts with a UTF-8 BOM that the text leaves out. */
  bom: string;
  report(): string;
}

export const isPrepared = (p: PreparedWrite | ToolResult): p is PreparedWrite => 'proposal' in p;

/**
 * Writes a prepared change: the proposal as is, or the text the user accepted in review. A file
 * that changed while the review was open is left alone (the user saw other text than is there now).
 */
export async function commitWrite(ctx: ToolContext, p: PreparedWrite | ToolResult, reviewed?: ReviewedWrite): Promise<ToolResult> {
  if (reviewed && (!isPrepared(p) || reviewed.proposal.current !== p.proposal.current || reviewed.proposal.created !== p.proposal.created)) {
    return errorResult('failed', `${reviewed.proposal.display} changed while the edit waited for approval, so nothing was written. Read it again and redo the change.`);
  }
  if (!isPrepared(p)) return p;
  const { path, display, proposed } = p.proposal;
  const text = reviewed?.text ?? proposed;
  const problems = await writeNotingProblems(ctx, path, display, () => writerOf(ctx).write(path, new TextEncoder().encode(p.bom + text), ctx.signal, { reviewed: !!reviewed }));
  const content = text === proposed ? p.report() : userChangeNote(display, proposed, text);
  return okResult(content + problems, { writtenPaths: [path] });
}
