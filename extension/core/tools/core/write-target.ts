import * as fs from 'node:fs';
import { createDiskFileWriter } from '../disk-reader';
import type { ResolvedPath } from '../paths';
import { errorResult, type FileWriter, type ToolContext, type ToolResult } from '../types';

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
