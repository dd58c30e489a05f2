import type * as vscode from 'vscode';
import { z } from 'zod';
import type { QueueStore } from '../../core/chat/controller';
import type { QueueState } from '../../core/chat/message-queue';
import type { Logger } from '../../core/log';
import type { Delivery, HostMessage, OutgoingImage } from '../../protocol';

const KEY_PREFIX = 'snowpea.queue.';

/** A queue as the workspace state keeps it (checked on load: a value from another version is dropped, said in the log). */
const storedQueueSchema = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      delivery: z.enum(['steer', 'queue']),
      input: z.object({
        text: z.string(),
        images: z.array(z.looseObject({ name: z.string(), mime: z.string(), dataBase64: z.string() })).optional(),
        attach: z.array(z.string()).optional(),
      }),
    }),
  ),
  held: z.boolean(),
});

/**
 * Each session's waiting messages in the workspace's state (beside state.db's folder, VS Code's
 * own storage), so a reloaded window finds them again, held. Not in state.db: they are not part of
 * the conversation until they are sent. An empty queue is removed.
 */
export function workspaceQueueStore(memento: vscode.Memento, log: Logger): QueueStore {
  return {
    load(sessionId) {
      const raw = memento.get<unknown>(KEY_PREFIX + sessionId);
      if (raw === undefined) return undefined;
      const parsed = storedQueueSchema.safeParse(raw);
      if (parsed.success) return parsed.data as QueueState;
      log.warn(`the waiting messages stored for session ${sessionId} are not readable and were dropped: ${parsed.error.issues[0]?.message}`);
      void memento.update(KEY_PREFIX + sessionId, undefined);
      return undefined;
    },
    save(sessionId, state) {
      const value = state.items.length ? state : undefined;
      void Promise.resolve(memento.update(KEY_PREFIX + sessionId, value)).catch((e: Error) => log.warn(`could not keep the waiting messages of session ${sessionId}: ${e.message}`));
    },
  };
}

/** A session's waiting messages as the webview is told them: their text, their images as metadata only. */
export function queueMessage(state: QueueState, sessionId: string, delivery: Delivery): Extract<HostMessage, { type: 'queue' }> {
  return {
    type: 'queue',
    sessionId,
    items: state.items.map((m) => {
      const images = (m.input.images ?? []).map((img) => {
        const { width, height } = img as Partial<OutgoingImage>;
        return { name: img.name, mime: img.mime, width: width ?? 0, height: height ?? 0 };
      });
      return { id: m.id, text: m.input.text, ...(images.length ? { images } : {}), delivery: m.delivery };
    }),
    held: state.held,
    delivery,
  };
}
