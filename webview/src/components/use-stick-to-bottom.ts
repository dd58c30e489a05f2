import { useCallback, useEffect, useRef, useState, type RefObject, type WheelEvent } from 'react';

/** How close to the bottom (px) still counts as "following the stream". */
const STICK_THRESHOLD = 40;

/**
 * Keeps a scroller at its bottom while the reader is there: whenever the content (the
 * virtual list's sizer, whose height tracks the measured rows) changes size, scroll to the
 * end. Scrolling or wheeling up leaves the bottom; scrolling back down sticks again.
 */
export function useStickToBottom(scroller: RefObject<HTMLElement | null>) {
  const stuck = useRef(true);
  /** Where the last automatic scroll left the view; only scrolling above it unsticks. */
  const autoTop = useRef(0);
  // A callback ref: the content comes and goes (an empty chat has none).
  const [inner, setInner] = useState<HTMLElement | null>(null);
  const contentRef = useCallback((el: HTMLElement | null) => setInner(el), []);

  useEffect(() => {
    const el = scroller.current;
    if (!el || !inner) return;
    // New content (a first message, another chat): start at its end.
    stuck.current = true;
    const follow = () => {
      if (!stuck.current) return;
      el.scrollTop = el.scrollHeight;
      autoTop.current = el.scrollTop;
    };
    const observer = new ResizeObserver(follow);
    observer.observe(inner);
    follow();
    return () => observer.disconnect();
  }, [scroller, inner]);

  return {
    contentRef,
    // Scroll events arrive a frame late, when more content may already have grown the view:
    // "not at the bottom" alone does not mean the reader left, scrolling up past autoTop does.
    onScroll() {
      const el = scroller.current;
      if (!el) return;
      if (el.scrollHeight - el.scrollTop - el.clientHeight < STICK_THRESHOLD) stuck.current = true;
      else if (el.scrollTop < autoTop.current - 1) stuck.current = false;
    },
    // Wheeling up is the reader's intent to leave the bottom, even before the scroll lands.
    onWheel(e: WheelEvent) {
      if (e.deltaY < 0) stuck.current = false;
    },
  };
}
