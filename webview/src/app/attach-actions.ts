import { MAX_IMAGES_PER_MESSAGE } from '../../../extension/protocol';
import { prepareImage, tooLargeError, type PreparedImage } from '../images/prepare-image';
import type { Store } from '../state/store';
import type { Attachment, ChatAction, ChatState } from '../state/types';

export interface AttachActions {
  /** Adds images to the composer; each gets a thumbnail at once and is prepared in the background. */
  attachFiles(files: Iterable<File>): void;
  removeAttachment(id: string): void;
  /** An image the host picked (Attach Image...): its bytes, or only its size when it is over the cap. */
  attachPicked(picked: { name: string; mime: string; size: number; dataBase64?: string }): void;
}

let counter = 0;
const newId = () => `att-${Date.now().toString(36)}-${++counter}`;

function toAttachment(id: string, file: File, prepared: PreparedImage): Exclude<Attachment, { status: 'processing' }> {
  const base = { id, name: file.name || 'image', size: file.size };
  if (!prepared.ok) return { ...base, status: 'error', error: prepared.error };
  return { ...base, status: 'ready', image: prepared.image, ...(prepared.original ? { original: prepared.original } : {}) };
}

export function createAttachActions(store: Store<ChatState, ChatAction>, prepare: (file: File) => Promise<PreparedImage> = prepareImage): AttachActions {
  return {
    attachFiles(files) {
      for (const file of files) {
        const id = newId();
        const name = file.name || 'image';
        store.dispatch({ type: 'attachment.add', id, name, size: file.size });
        const counted = store.getState().attachments.filter((a) => a.status !== 'error').length;
        if (counted > MAX_IMAGES_PER_MESSAGE) {
          const error = `${name}: at most ${MAX_IMAGES_PER_MESSAGE} images per message.`;
          store.dispatch({ type: 'attachment.done', id, result: { id, name, size: file.size, status: 'error', error } });
          continue;
        }
        void prepare(file)
          .catch((e: unknown): PreparedImage => ({ ok: false, error: `${name} could not be prepared: ${(e as Error).message}` }))
          .then((prepared) => store.dispatch({ type: 'attachment.done', id, result: toAttachment(id, file, prepared) }));
      }
    },
    removeAttachment: (id) => store.dispatch({ type: 'attachment.remove', id }),
    attachPicked(picked) {
      if (picked.dataBase64 !== undefined) {
        const bytes = Uint8Array.from(atob(picked.dataBase64), (c) => c.charCodeAt(0));
        this.attachFiles([new File([bytes], picked.name, { type: picked.mime })]);
        return;
      }
      const id = newId();
      store.dispatch({ type: 'attachment.add', id, name: picked.name, size: picked.size });
      store.dispatch({ type: 'attachment.done', id, result: { id, name: picked.name, size: picked.size, status: 'error', error: tooLargeError(picked.name, picked.size) } });
    },
  };
}
