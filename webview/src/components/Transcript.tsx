import { useEffect, useRef } from 'react';
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
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const stuck = useRef(true);
  /** Where the last automatic scroll left the view; only scrolling above it unsticks. */
  const autoTop = useRef(0);

  // Content grows after commits too (deferred Markdown, fonts), so follow its size, not the items.
  useEffect(() => {
    const el = scroller.current;
    const inner = content.current;
    if (!el || !inner) return;
    const follow = () => {
      if (!stuck.current) return;
      el.scrollTop = el.scrollHeight;
      autoTop.current = el.scrollTop;
    };
    const observer = new ResizeObserver(follow);
    observer.observe(inner);
    follow();
    return () => observer.disconnect();
  }, []);

  // Scroll events arrive a frame late, when more content may already have grown the view:
  // "not at the bottom" alone does not mean the reader left, scrolling up past autoTop does.
  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < STICK_THRESHOLD) stuck.current = true;
    else if (el.scrollTop < autoTop.current - 1) stuck.current = false;
  };

  return (
    <div
      className="transcript"
      ref={scroller}
      onScroll={onScroll}
      // Wheeling up is the reader's intent to leave the bottom, even before the scroll lands.
      onWheel={(e) => {
        if (e.deltaY < 0) stuck.current = false;
      }}
      role="log"
      aria-label="Conversation"
      aria-live="polite"
    >
      <div className="transcript-content" ref={content}>
        {items.length === 0 ? <Welcome /> : items.map((item) => <TranscriptItemView key={item.id} item={item} />)}
      </div>
    </div>
  );
}
