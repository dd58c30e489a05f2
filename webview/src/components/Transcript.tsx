import { useLayoutEffect, useRef } from 'react';
import { useChat } from '../app/context';
import { TranscriptItemView } from './TranscriptItemView';
import { Welcome } from './Welcome';
import './transcript.css';

/** How close to the bottom (px) still counts as "following the stream". */
const STICK_THRESHOLD = 40;

/**
 * The conversation. Follows new content while the reader is at the bottom and leaves the
 * scroll position alone once they scroll up. (Virtualization for very long chats comes with
 * the full chat UI; items are memoized so a streaming delta re-renders one message.)
 */
export function Transcript() {
  const items = useChat((s) => s.items);
  const ref = useRef<HTMLDivElement>(null);
  const stuck = useRef(true);

  useLayoutEffect(() => {
    const el = ref.current;
    if (el && stuck.current) el.scrollTop = el.scrollHeight;
  }, [items]);

  const onScroll = () => {
    const el = ref.current;
    if (el) stuck.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_THRESHOLD;
  };

  return (
    <div className="transcript" ref={ref} onScroll={onScroll} role="log" aria-label="Conversation" aria-live="polite">
      {items.length === 0 ? <Welcome /> : items.map((item) => <TranscriptItemView key={item.id} item={item} />)}
    </div>
  );
}
