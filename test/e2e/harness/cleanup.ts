/**
 * Last-resort cleanup: every process the harness starts is registered here and killed (with its
 * whole tree) when the test process exits, even after a failed test or Ctrl+C. The after hooks
 * stop things politely first; this only catches what they could not reach.
 */
type KillTree = (pid: number, signal?: NodeJS.Signals) => void;

const tracked = new Map<number, KillTree>();

function killAll(): void {
  for (const [pid, killTree] of tracked) killTree(pid, 'SIGKILL');
  tracked.clear();
}

function install(): void {
  process.on('exit', killAll);
  const signals: [NodeJS.Signals, number][] = [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]];
  for (const [signal, code] of signals) {
    process.once(signal, () => {
      killAll();
      process.exit(code);
    });
  }
}

// Installed on import, before anything starts: a signal that arrives while code-server is still
// starting then still ends in process.exit, whose 'exit' handlers (here, in scripts/code-server.mjs
// and in playwright) kill what was started.
install();

/** Kills `pid` and its descendants when the test process exits, unless untracked first. */
export function trackProcess(pid: number, killTree: KillTree): void {
  tracked.set(pid, killTree);
}

export function untrackProcess(pid: number): void {
  tracked.delete(pid);
}
