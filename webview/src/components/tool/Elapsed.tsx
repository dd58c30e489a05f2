import { useEffect, useState } from 'react';

/** `850ms`, `4.2s`, `12s`, `2m 05s` */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)}s`;
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, '0')}s`;
}

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
      {running ? formatDuration(Math.floor(ms / 1000) * 1000) : formatDuration(ms)}
    </span>
  );
}
