import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { useChat } from '../app/context';
import { estimateRow } from './row-estimate';
import { TranscriptItemView } from './TranscriptItemView';
import { useStickToBottom } from './use-stick-to-bottom';
import { Welcome } from './Welcome';
import './transcript.css';

/** Space between rows and around the list (px). */
const GAP = 8;
const PADDING = 8;

/**
 * The conversation, virtualized: only the rows in and near the viewport are in the DOM, each
 * measured as it renders (heights vary and change while text streams). Follows new content
 * while the reader is at the bottom and leaves the scroll position alone once they scroll up.
 * Not a live region: rows mount as the reader scrolls, which is not news (see Announcer).
 */
export function Transcript() {
  const items = useChat((s) => s.items);
  const scroller = useRef<HTMLDivElement>(null);
  const stick = useStickToBottom(scroller);

  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => estimateRow(items[i]),
    getItemKey: (i) => items[i]?.id ?? i,
    overscan: 8,
    gap: GAP,
    paddingStart: PADDING,
    paddingEnd: PADDING,
    // Start at the end: a resumed chat opens at its latest message.
    initialOffset: () => Number.MAX_SAFE_INTEGER,
    useFlushSync: false,
  });

  return (
    <div className="transcript" ref={scroller} onScroll={stick.onScroll} onWheel={stick.onWheel} role="log" aria-label="Conversation" aria-live="off" data-testid="transcript">
      {items.length === 0 ? (
        <Welcome />
      ) : (
        <div className="transcript-sizer" ref={stick.contentRef} style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((row) => {
            const item = items[row.index];
            if (!item) return null;
            return (
              <div
                key={row.key}
                className="transcript-row"
                data-index={row.index}
                ref={virtualizer.measureElement}
                style={{ transform: `translateY(${row.start}px)` }}
                data-testid="transcript-item"
              >
                <TranscriptItemView item={item} />
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}
