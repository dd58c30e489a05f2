/**
 * Which sessions hold which attachments. The store keys images by their content, so two
 * sessions that show the same picture share one file: every stored message that carries images
 * records its session in index.json, and deleting a session deletes only the files no other
 * session (of any state.db sharing the folder) still holds.
 */
import type { Message } from '../conversation/messages';
import type { TranscriptSink } from '../conversation/transcript-sink';
import type { Logger } from '../log';

export interface SessionAttachments {
  reference(sessionId: string, imageIds: string[]): Promise<void>;
  releaseSessions(sessionIds: string[]): Promise<string[]>;
}

/** The attachment-store ids a message carries (user messages hold images; tool results are text). */
export function imageIdsOf(message: Message): string[] {
  if (message.role !== 'user' || typeof message.content === 'string') return [];
  return message.content.flatMap((p) => (p.type === 'image' ? [p.imageId] : []));
}

/** The sink, plus: each message stored with images references them for its session. */
export function referencingSink(sink: TranscriptSink, attachments: SessionAttachments, log: Logger): TranscriptSink {
  return {
    appendMessage(sessionId, entry) {
      const stored = sink.appendMessage(sessionId, entry);
      const ids = imageIdsOf(entry.message);
      if (ids.length) {
        attachments.reference(sessionId, ids).catch((e: Error) => log.warn(`attachments: could not record that session ${sessionId} holds ${ids.join(', ')}: ${e.message}`));
      }
      return stored;
    },
    recordUsage: (sessionId, round, usage) => sink.recordUsage(sessionId, round, usage),
    recordEvent: sink.recordEvent && ((sessionId, event) => sink.recordEvent!(sessionId, event)),
    updateSession: (id, patch) => sink.updateSession(id, patch),
    commitRound: () => sink.commitRound(),
  };
}

export interface DeletableSessions {
  deleteSession(id: string): boolean;
  childSessions(parentId: string): Array<{ id: string }>;
}

/** The session and its delegated children, grandchildren included. */
export function sessionTreeIds(store: Pick<DeletableSessions, 'childSessions'>, id: string): string[] {
  const out: string[] = [];
  const queue = [id];
  while (queue.length) {
    const next = queue.shift()!;
    if (out.includes(next)) continue;
    out.push(next);
    queue.push(...store.childSessions(next).map((c) => c.id));
  }
  return out;
}

/**
 * Deletes a stored session (state.db deletes its delegated children with it), then the
 * attachment files none of the remaining sessions holds. Deleting files never throws and never
 * undoes the delete: failures are logged. Returns the deleted session ids ([] when unknown).
 */
export async function deleteSessionWithAttachments(store: DeletableSessions, attachments: SessionAttachments, id: string, log: Logger): Promise<string[]> {
  const ids = sessionTreeIds(store, id);
  if (!store.deleteSession(id)) return [];
  try {
    await attachments.releaseSessions(ids);
  } catch (e) {
    log.warn(`attachments: deleting the images of session ${id} failed: ${(e as Error).message}`);
  }
  return ids;
}
