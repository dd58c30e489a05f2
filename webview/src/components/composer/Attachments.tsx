import { memo } from 'react';
import { useActions, useChat } from '../../app/context';
import { formatBytes, formatDimensions, noVisionMarker } from '../../images/format';
import type { Attachment } from '../../state/types';
import { Icon } from '../../ui/Icon';
import './attachments.css';

/** The composer's images: a thumbnail each with name, size and dimensions, or why it cannot go. */
export function Attachments() {
  const attachments = useChat((s) => s.attachments);
  const supportsImages = useChat((s) => s.session?.supportsImages ?? true);
  if (!attachments.length) return null;
  return (
    <ul className="attachments" aria-label="Attached images">
      {attachments.map((a) => (
        <Thumbnail key={a.id} attachment={a} supportsImages={supportsImages} />
      ))}
    </ul>
  );
}

const Thumbnail = memo(function Thumbnail({ attachment: a, supportsImages }: { attachment: Attachment; supportsImages: boolean }) {
  const actions = useActions();
  return (
    <li className="attachment" data-kind="attachment" data-status={a.status} data-name={a.name}>
      <div className="attachment-preview">
        {a.status === 'ready' ? (
          <img src={`data:${a.image.mime};base64,${a.image.dataBase64}`} alt={a.name} />
        ) : (
          <Icon name={a.status === 'processing' ? 'loading' : 'warning'} spin={a.status === 'processing'} />
        )}
      </div>
      <div className="attachment-info">
        <div className="attachment-name" title={a.name}>
          {a.name}
        </div>
        <div className="attachment-meta">
          <AttachmentMeta attachment={a} />
        </div>
        {a.status === 'error' ? (
          <div className="attachment-error" role="alert">
            {a.error}
          </div>
        ) : null}
        {a.status === 'ready' && !supportsImages ? (
          <div className="attachment-note" data-kind="no-vision">
            This model has no vision: it gets the text {noVisionMarker(a.image.name, a.image.width, a.image.height)} instead.
          </div>
        ) : null}
      </div>
      <button type="button" className="icon-button attachment-remove" aria-label={`Remove ${a.name}`} title="Remove" onClick={() => actions.removeAttachment(a.id)}>
        <Icon name="close" />
      </button>
    </li>
  );
});

function AttachmentMeta({ attachment: a }: { attachment: Attachment }) {
  const size = formatBytes(a.size);
  if (a.status === 'processing') return <>{size} · preparing…</>;
  if (a.status === 'error') return <>{size}</>;
  const dims = formatDimensions(a.image.width, a.image.height);
  const sentBytes = Math.floor((a.image.dataBase64.length * 3) / 4);
  const sent = `sent as ${a.image.mime.replace('image/', '').toUpperCase()}, ${formatBytes(sentBytes)}`;
  return (
    <span title={sent}>
      {size} · <span className="attachment-dims">{dims}</span>
      {a.original ? <> (downscaled from {formatDimensions(a.original.width, a.original.height)})</> : null}
    </span>
  );
}
