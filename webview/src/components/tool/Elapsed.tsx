import { useEffect, useState } from 'react';
import { formatDuration, formatElapsed } from './duration';

/** Time since `startedAt`, ticking every second while `running`; the final duration once ended. */
export function Elapsed({ startedAt, endedAt, running }: { startedAt?: number; endedAt?: number; running: boolean }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  if (startedAt === undefined) return null;
  const end = running ? now : endedAt;
  if (end === undefined) return null;
  const ms = end - startedAt;
  return (
    <span className="tool-elapsed" title={running ? 'Running for' : 'Took'}>
      {running ? formatElapsed(ms) : formatDuration(ms)}
    </span>
  );
}
