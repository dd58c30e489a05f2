import * as vscode from 'vscode';
import { userMessageIndex } from '../../core/conversation/messages';
import type { Session } from '../../core/conversation/session';
import { NoCheckpointError, restoreListing, type FileChange, type PointName, type RestorePlan, type RestoreResult, type RestoreSeam, type RestoreTarget } from '../../core/checkpoints';
import { typedText } from '../../core/input/compose';
import type { Logger } from '../../core/log';
import type { HostMessage, WebviewMessage } from '../../protocol';
import type { AgentHost } from '../agent-host';
import { findOpenDocument } from '../workspace/editor-files';
import { showError, showInfo, showWarning } from '../dialogs';

export type RestoreRequest = Extract<WebviewMessage, { type: 'checkpoint.restore' }>;

/** Why a restore cannot happen now (a turn runs, no checkpoint): said as a warning, not an error. */
class RestoreRefused extends Error {}

const NO_CHECKPOINT_WHY = 'checkpoints were off, or the workspace was over checkpoints.maxWorkspaceMB, when it was sent, or it expired (checkpoints.maxAgeDays, checkpoints.maxStoreMB)';

/** Most files to recreate or rewrite the confirmation names (the rest are counted); files it deletes are all named. */
const MAX_LISTED = 40;

/** Hosts with a restore in progress (its confirmation open, or git restoring). */
const busyHosts = new WeakSet<AgentHost>();

/**
 * A user message's restore action in the chat: lists the files changed since the checkpoint
 * before that message, asks in a modal, puts them back and tells the repeat guard; the
 * notification after it offers "Undo restore" (the restore point taken before it). `rewind` also
 * takes the conversation back to before the message. Returns what the chat should be sent:
 * after a rewind, the conversation replayed and the message's text back in the composer.
 * A refusal is a warning, a failure an error message; neither is thrown.
 */
export function restoreCheckpoint(host: AgentHost, log: Pick<Logger, 'error'>, req: RestoreRequest): Promise<HostMessage[]> {
  return oneAtATime(host, log, `restore to before message ${req.turn}`, () => restore(host, log, req));
}

/** Runs `fn` unless a restore is in progress in this host; a refusal is a warning, a failure an error message (`what` names it), neither thrown. */
async function oneAtATime(host: AgentHost, log: Pick<Logger, 'error'>, what: string, fn: () => Promise<HostMessage[]>): Promise<HostMessage[]> {
  if (busyHosts.has(host)) {
    void showWarning('Snowpea: a restore is in progress already.');
    return [];
  }
  busyHosts.add(host);
  try {
    return await fn();
  } catch (e) {
    if (e instanceof RestoreRefused) void showWarning(`Snowpea: ${e.message}`);
    else {
      log.error(`${what} failed: ${(e as Error).stack ?? e}`);
      void showError(`Snowpea: the ${what} failed: ${(e as Error).message}`);
    }
    return [];
  } finally {
    busyHosts.delete(host);
  }
}

const UNDO = 'Undo restore';

/** The notification after a restore: `text`, and "Undo restore" when a restore point was taken (reliability N6). */
function tellRestored(host: AgentHost, log: Pick<Logger, 'error'>, sessionId: string, text: string, undo: PointName | undefined): void {
  void (undo ? showInfo(text, UNDO) : showInfo(text)).then((choice) => {
    // Once the restore that offered it has finished (a notification answered at once must not find it still running).
    if (choice === UNDO && undo) setTimeout(() => void undoRestore(host, log, sessionId, undo), 0);
  });
}

/**
 * "Undo restore": puts the files back as they were just before the restore (its restore point),
 * through the same plan, modal and restore; the conversation is not un-rewound. The undo is a
 * restore too, so it can be undone in turn.
 */
export function undoRestore(host: AgentHost, log: Pick<Logger, 'error'>, sessionId: string, point: PointName): Promise<HostMessage[]> {
  return oneAtATime(host, log, 'undo of the restore', async () => {
    const session = ready(host, { sessionId });
    const store = host.checkpoints;
    if (!store) throw new RestoreRefused('checkpoints need a workspace folder; this window has none.');
    const plan = await store.restorePlan(session.id, point, new AbortController().signal).catch((e: Error) => {
      throw e instanceof NoCheckpointError ? new RestoreRefused('the files as they were before that restore are no longer kept (checkpoints.maxAgeDays, checkpoints.maxStoreMB).') : e;
    });
    if (!plan.changes.length) {
      void showInfo('Snowpea: nothing to undo; the files are as they were before the restore.');
      return [];
    }
    const detail = restoreListing(plan, MAX_LISTED).join('\n');
    const q = `Undo the restore: put ${count(plan.changes.length)} back as they were just before it${deletedCount(plan.changes)}?`;
    if ((await showWarning(q, { modal: true, detail }, UNDO)) !== UNDO) return [];
    ready(host, { sessionId });
    const done = await restoreFiles(host, store, session, point, plan.changes);
    tellRestored(host, log, session.id, `Snowpea: put ${count(done.changes.length)} back as they were before the restore.`, done.undo);
    return [];
  });
}

async function restore(host: AgentHost, log: Pick<Logger, 'error'>, req: RestoreRequest): Promise<HostMessage[]> {
  const session = ready(host, req);
  const store = host.checkpoints;
  if (!store) throw new RestoreRefused('checkpoints need a workspace folder; this window has none.');
  const index = userMessageIndex(session.messages, req.turn);
  if (index < 0) throw new RestoreRefused(`this conversation has no message ${req.turn}.`);
  const plan = await restorePlan(store, session, req);
  const changes = plan?.changes;
  if (changes && !changes.length && !req.rewind) {
    void showInfo(`Snowpea: nothing to restore; no file has changed since before message ${req.turn}.`);
    return [];
  }
  if (!(await confirm(store, plan, req))) return [];
  ready(host, req); // a turn may have started while the dialog was open
  // Only what the dialog listed: a file made while it was open is not deleted unseen.
  const done: RestoreResult = changes?.length ? await restoreFiles(host, store, session, req.turn, changes) : { changes: [] };
  const restored = done.changes;
  if (!req.rewind) {
    tellRestored(host, log, session.id, `Snowpea: restored ${count(restored.length)} to before message ${req.turn}.`, done.undo);
    return [];
  }
  ready(host, req);
  const agent = host.startedAgent();
  if (!agent || !(await agent.rewind(session, req.turn))) {
    throw new Error(`${restored.length ? `${count(restored.length)} restored${done.undo ? ` (${done.undo} undoes it)` : ''}, but ` : ''}the conversation could not be rewound to before message ${req.turn}`);
  }
  if (restored.length) tellRestored(host, log, session.id, `Snowpea: restored ${count(restored.length)} and rewound the conversation to before message ${req.turn}.`, done.undo);
  const text = typedText(session.messages[index].content);
  return [...(await host.initMessages()), ...(text ? [{ type: 'composer.insert', text } as const] : [])];
}

/** The current session, when it is the one the chat showed and nothing else runs in it. */
function ready(host: AgentHost, req: Pick<RestoreRequest, 'sessionId'>): Session {
  const session = host.currentSession();
  if (!session || session.id !== req.sessionId) throw new RestoreRefused('that message belongs to a conversation the chat no longer shows.');
  const busy = host.busyReason();
  if (busy) throw new RestoreRefused(`${busy} Then restore.`);
  return session;
}

/** The files changed since the message's checkpoint, and those left alone; undefined for a rewind without one (only the conversation can go back). */
async function restorePlan(store: RestoreSeam, session: Session, req: RestoreRequest): Promise<RestorePlan | undefined> {
  try {
    return await store.restorePlan(session.id, req.turn, new AbortController().signal);
  } catch (e) {
    if (!(e instanceof NoCheckpointError)) throw e;
    if (req.rewind) return undefined;
    throw new RestoreRefused(`there is no checkpoint before message ${req.turn} (${NO_CHECKPOINT_WHY}).`);
  }
}

/** The modal: which files go back and how (deletions first, all named), unsaved editors that keep their text, and the rewind. */
async function confirm(store: RestoreSeam, plan: RestorePlan | undefined, req: RestoreRequest): Promise<boolean> {
  const changes = plan?.changes ?? [];
  const found = plan?.changes;
  const button = !changes.length ? 'Rewind' : req.rewind ? 'Restore and Rewind' : 'Restore';
  const listed = plan && changes.length ? restoreListing(plan, MAX_LISTED) : [];
  const unsaved = changes.filter((c) => findOpenDocument(store.absPath(c.path))?.isDirty).map((c) => c.path);
  const notes = [
    ...(unsaved.length ? [`Unsaved edits in the editor stay unsaved (saving them would overwrite the restored file): ${unsaved.join(', ')}.`] : []),
    ...(req.rewind ? ['The conversation goes back to before this message; the later messages stay stored, and your message returns to the composer.'] : []),
  ];
  const detail = [listed.join('\n'), notes.join('\n')].filter(Boolean).join('\n\n');
  return (await showWarning(question(found, req), { modal: true, detail }, button)) === button;
}

function question(found: FileChange[] | undefined, req: RestoreRequest): string {
  if (!found) return `There is no checkpoint before message ${req.turn} (${NO_CHECKPOINT_WHY}), so no file can be restored. Rewind only the conversation to before it?`;
  if (!found.length) return `No file has changed since before message ${req.turn}. Rewind the conversation to before it?`;
  return `Restore ${count(found.length)} to how they were before message ${req.turn}${deletedCount(found)}${req.rewind ? ', and rewind the conversation to before it' : ''}?`;
}

function deletedCount(changes: readonly FileChange[]): string {
  const deleted = changes.filter((c) => c.status === 'added').length;
  return deleted ? ` (deleting ${count(deleted)} created since)` : '';
}

/**
 * Puts the files back (a restore point of them as they were taken first); the repeat guard
 * forgets what it read of them, and the last turn's Keep/Undo list goes (its files are restored).
 */
async function restoreFiles(host: AgentHost, store: RestoreSeam, session: Session, to: RestoreTarget, confirmed: readonly FileChange[]): Promise<RestoreResult> {
  const restored = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Snowpea: restoring files' }, () =>
    store.restoreUndoable(session.id, to, new AbortController().signal, confirmed),
  );
  const agent = host.startedAgent();
  for (const c of restored.changes) agent?.invalidatePath(store.absPath(c.path));
  await host.edits.changes.keep();
  return restored;
}

function count(n: number): string {
  return `${n} file${n === 1 ? '' : 's'}`;
}
