import * as fs from 'node:fs';
import * as path from 'node:path';
import { displayPath, type ResolvedPath } from '../paths';
import { closeNames } from '../suggest';
import { errorResult, type ToolResult } from '../types';

/** `not_found` for a path that does not exist, naming similar entries of its folder when there are any. */
export function notFoundResult(workspaceRoot: string, r: ResolvedPath): ToolResult {
  let dir = path.dirname(r.real);
  while (!fs.existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  let near: string[];
  try {
    near = closeNames(path.basename(r.real), fs.readdirSync(dir)).map((n) => displayPath(workspaceRoot, path.join(dir, n)));
  } catch {
    near = [];
  }
  const hint = near.length ? ` Similar: ${near.join(', ')}.` : ' Use glob or list_dir to find the right path.';
  return errorResult('not_found', `${r.display} does not exist.${hint}`);
}
