import * as path from 'node:path';
import { limitsFromSettings } from '../core/images/limits';
import { deleteSessionWithAttachments } from '../core/images/session-refs';
import { removeSessionScratch } from '../core/tools/exec/scratch';
import { AttachmentStore } from '../core/images/store';
import { listCheckpoints, restoreCheckpoint, type CheckpointFlags } from './checkpoints';
import { sessionsCompactCommand } from './compact';
import { cliCheckpointStore, cliScratchRoot, cliSettings, openCliStore, stderrLogger } from './setup';
import { block } from './terminal-text';
import { resolveSessionId } from './session-id';
import { listSessionsCommand } from './session-list';

export interface SessionsFlags extends CheckpointFlags {
  format?: string;
  focus?: string;
  /** sessions list: every folder's sessions, not only the current folder's. */
  all?: boolean;
}

const SESSION_COMMANDS = ['list', 'show', 'export', 'delete', 'checkpoints', 'restore', 'compact'];

/** `snowpea sessions list|show|export|delete|checkpoints|restore|compact`; ID may be a prefix of the id (session-id.ts). */
export async function sessionsCommand(sub: string | undefined, typedId: string | undefined, flags: SessionsFlags): Promise<number> {
  const log = stderrLogger(!!flags.verbose);
  // The command is checked before the id (and before the store is opened).
  if (sub !== undefined && !SESSION_COMMANDS.includes(sub)) {
    log.error(`unknown sessions command ${sub}: use list, show, export, delete, checkpoints, restore or compact`);
    return 1;
  }
  // compact runs the model: it opens the store itself, through the agent.
  if (sub === 'compact') {
    if (!typedId) {
      log.error('snowpea sessions compact needs a session id (see: snowpea sessions list)');
      return 1;
    }
    return sessionsCompactCommand(typedId, flags);
  }
  const store = await openCliStore(flags, log, { readOnly: sub !== 'delete' });
  try {
    if (sub === 'list' || sub === undefined) return listSessionsCommand(store, process.cwd(), flags);
    if (!typedId) {
      log.error(`snowpea sessions ${sub} needs a session id (see: snowpea sessions list)`);
      return 1;
    }
    const id = resolveSessionId(store, typedId);
    const rec = store.getSession(id)!;
    if (sub === 'checkpoints' || sub === 'restore') {
      // The session's own workspace, wherever the command runs.
      const checkpoints = cliCheckpointStore(rec.workspaceRoot, flags, () => cliSettings(process.cwd(), flags, log), log);
      return await (sub === 'checkpoints' ? listCheckpoints : restoreCheckpoint)(store, id, checkpoints, flags, log);
    }
    if (sub === 'show') {
      // On a terminal the transcript (model text, tool output) is escaped like all text there; piped, it is the export as is.
      const md = store.exportSession(id, 'md');
      process.stdout.write(process.stdout.isTTY ? block(md) : md);
      return 0;
    }
    if (sub === 'export') {
      const format = flags.format ?? 'json';
      if (format !== 'json' && format !== 'md') {
        log.error(`--format must be json or md, not ${format}`);
        return 1;
      }
      process.stdout.write(store.exportSession(id, format));
      return 0;
    }
    if (sub === 'delete') {
      // As in the editor: the session, its delegated children, and the images no other session holds.
      const settings = cliSettings(process.cwd(), flags, log);
      const attachments = new AttachmentStore({ dir: path.join(cliScratchRoot(), 'attachments'), limits: () => limitsFromSettings(settings), logger: log });
      const deleted = await deleteSessionWithAttachments(store, attachments, id, log);
      const checkpoints = cliCheckpointStore(rec.workspaceRoot, flags, () => settings, log);
      for (const sid of deleted) {
        await removeSessionScratch(cliScratchRoot(), sid);
        await checkpoints.forget(sid);
      }
      const children = deleted.length - 1;
      process.stdout.write(`deleted session ${id}${children > 0 ? ` and ${children} delegated subtask${children === 1 ? '' : 's'}` : ''}\n`);
      return 0;
    }
    return 1; // not reached: the command was checked above
  } finally {
    await store.close();
  }
}
