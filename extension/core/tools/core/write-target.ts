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
  /** What the policy judged the path by (pathFacts), to tell whether it changed while a review was open. */
  facts: string;
  report(): string;
}

export const isPrepared = (p: PreparedWrite | ToolResult): p is PreparedWrite => 'proposal' in p;

/** The facts about a path the approval policy reads (inside, protected, credentials, hard links), as one comparable string. */
export function pathFacts(r: ResolvedPath): string {
  return JSON.stringify([r.inside, r.protectedReason ?? null, r.sensitiveReason ?? null, r.hardLinks]);
}

/** The facts each proposal put to the user was made with (the proposal object travels through the review unchanged). */
const reviewedFacts = new WeakMap<WriteProposal, string>();

/** The proposal to show the user, remembered with the path facts it was made with. */
export function proposalOf(p: PreparedWrite | ToolResult): WriteProposal | ToolResult {
  if (!isPrepared(p)) return p;
  reviewedFacts.set(p.proposal, p.facts);
  return p.proposal;
}

/**
 * Why the reviewed write may not land now, when it may not: the text there changed, the name
 * now resolves to another file (a link put in its place), or the path's facts changed (a second
 * hard link, a protected place), so the policy would not have put the same question.
 */
function changedSinceReview(p: PreparedWrite | ToolResult, reviewed: ReviewedWrite): string | undefined {
  const before = reviewed.proposal;
  const why = `${before.display} changed while the edit waited for approval`;
  const redo = 'so nothing was written. Read it again and redo the change.';
  if (!isPrepared(p) || before.current !== p.proposal.current || before.created !== p.proposal.created) return `${why}, ${redo}`;
  if (before.path !== p.proposal.path) return `${why} (its name now leads to ${p.proposal.path}, not the file reviewed), ${redo}`;
  const facts = reviewedFacts.get(before);
  if (facts !== undefined && facts !== p.facts) {
    const [inside, protectedReason, sensitiveReason] = JSON.parse(p.facts) as [boolean, string | null, string | null];
    const now = protectedReason ?? sensitiveReason ?? (inside ? 'its path is no longer protected as it was' : 'it is now outside the workspace');
    return `${why} (${now}), ${redo}`;
  }
  return undefined;
}

/**
 * Writes a prepared change (prepared again after the approval): the proposal as is, or the text
 * the user accepted in review. A file that changed while the review was open (its text, the file
 * its name leads to, or its path facts) is left alone: the user reviewed something else. The
 * writer never follows a link at the name, and creates a new file only where nothing is.
 */
export async function commitWrite(ctx: ToolContext, p: PreparedWrite | ToolResult, reviewed?: ReviewedWrite): Promise<ToolResult> {
  const changed = reviewed && changedSinceReview(p, reviewed);
  if (changed) return errorResult('failed', changed);
  if (!isPrepared(p)) return p;
  const { path, display, proposed, created } = p.proposal;
  const text = reviewed?.text ?? proposed;
  const bytes = new TextEncoder().encode(p.bom + text);
  const problems = await writeNotingProblems(ctx, path, display, () => writerOf(ctx).write(path, bytes, ctx.signal, { reviewed: !!reviewed, created }));
  const content = text === proposed ? p.report() : userChangeNote(display, proposed, text);
  return okResult(content + problems, { writtenPaths: [path] });
}
