/** What taking a checkpoint says to the user and the log: what it kept, left out, or could not take. */

const MB = 1024 * 1024;
/** Most over-limit files a log line names. */
const MAX_NAMED = 20;

export function fallbackNote(workTree: string, bytes: number, limitMB: number): string {
  return `files your .gitignore excludes are not in this workspace's checkpoints: with them ${workTree} holds at least ${Math.ceil(bytes / MB)} MB, over the ${limitMB} MB limit (checkpoints.maxWorkspaceMB); a restore leaves them alone`;
}

export function notHeldLine(turn: number, files: readonly string[], maxFileBytes: number): string {
  const named = files.slice(0, MAX_NAMED).join(', ');
  const more = files.length > MAX_NAMED ? `, and ${files.length - MAX_NAMED} more` : '';
  return `not in the checkpoint before turn ${turn} (over checkpoints.maxFileMB, ${maxFileBytes / MB} MB; a restore leaves them alone): ${named}${more}`;
}

export function keptLine(sessionId: string, turn: number, time: number): string {
  return `turn ${turn} of session ${sessionId} was started before (${new Date(time).toISOString().slice(0, 16).replace('T', ' ')} UTC) and stopped before its message was saved; the checkpoint from then is kept, so a restore to ${turn} goes back to before that attempt too`;
}

export function tooLarge(bytes: number, limitMB: number): string {
  return `checkpoints are off for this workspace: at least ${Math.ceil(bytes / MB)} MB of files, over the ${limitMB} MB limit (checkpoints.maxWorkspaceMB; files .gitignore excludes do not count)`;
}
