/**
 * `snowpea run --attach PATH` is checked before anything is opened or sent: a path that does not
 * exist, cannot be read, is a folder or special file, or that the mention rules refuse (a link out
 * of the workspace, a credentials location: mention-path.ts) is an error naming it. In the editor
 * a refused attachment becomes a note and the message still goes; on the command line the user
 * named the file explicitly, so running without it would answer a different question.
 */
import * as fs from 'node:fs';
import { notRegularFileMessage } from '../core/tools/file-kind';
import { resolveToolPath } from '../core/tools/paths';
import { mentionRefusal } from '../core/input/mention-path';
import { FlagError } from './flag-checks';
import { oneLine } from './terminal-text';

const NOTHING_SENT = 'nothing was sent';

/** Why `typed` cannot be attached from `workspaceRoot`, or undefined when it can. */
export function attachProblem(workspaceRoot: string, typed: string): string | undefined {
  const r = resolveToolPath(workspaceRoot, typed);
  const name = oneLine(typed);
  if (!r.exists) return `--attach ${name}: no such file`;
  const why = mentionRefusal(workspaceRoot, r);
  if (why) return `--attach ${name}: ${why}`;
  let st: fs.Stats;
  try {
    st = fs.statSync(r.real);
    if (st.isDirectory()) return `--attach ${name} is a folder; attach the files in it`;
    const special = notRegularFileMessage(name, st);
    if (special) return `--attach ${special}`;
    fs.accessSync(r.real, fs.constants.R_OK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return `--attach ${name} cannot be read (${code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (code ?? (e as Error).message)})`;
  }
  return undefined;
}

/** Throws a FlagError naming every --attach path that cannot be attached. */
export function checkAttachPaths(workspaceRoot: string, paths: string[]): void {
  const problems = paths.flatMap((p) => attachProblem(workspaceRoot, p) ?? []);
  if (problems.length) throw new FlagError(`${problems.join('; ')}; ${NOTHING_SENT}`);
}
