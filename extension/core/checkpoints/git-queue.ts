/** One git operation at a time per shadow repository in this process. */
const queues = new Map<string, Promise<unknown>>();

/** Runs `fn` once every operation queued before it on the shadow repository `gitDir` is done (however it ended). */
export function exclusive<T>(gitDir: string, fn: () => Promise<T>): Promise<T> {
  const run = (queues.get(gitDir) ?? Promise.resolve()).then(fn, fn);
  const tail = run.catch(() => {});
  queues.set(gitDir, tail);
  void tail.then(() => queues.get(gitDir) === tail && queues.delete(gitDir));
  return run;
}
