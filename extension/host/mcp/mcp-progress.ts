import * as vscode from 'vscode';
import type { McpManager } from '../../core/mcp';

/** A start shorter than this shows no notification (most stdio servers are up in well under a second). */
const SHOW_AFTER_MS = 1_000;

/**
 * A cancellable progress notification for each MCP server that takes a while to start (in the
 * background when its tools are first needed, or for a tool call). Cancel stops the server: its
 * process is killed and a call waiting for it returns `cancelled`; the next use starts it again.
 */
export function showMcpStartProgress(manager: McpManager, log: { info(msg: string): void }): vscode.Disposable {
  const timers = new Map<string, NodeJS.Timeout>();
  const shown = new Map<string, () => void>();
  const startingNow = () => new Set(manager.servers().filter((s) => s.state === 'starting').map((s) => s.name));

  const show = (name: string) =>
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Snowpea: starting the MCP server "${name}"…`, cancellable: true },
      (_progress, token) =>
        new Promise<void>((resolve) => {
          shown.set(name, resolve);
          token.onCancellationRequested(() => {
            log.info(`MCP server ${name}: start cancelled by the user`);
            shown.delete(name);
            resolve();
            void manager.stop(name);
          });
        }),
    );

  const update = () => {
    const starting = startingNow();
    for (const [name, done] of shown) {
      if (starting.has(name)) continue;
      shown.delete(name);
      done();
    }
    for (const [name, timer] of timers) {
      if (starting.has(name)) continue;
      timers.delete(name);
      clearTimeout(timer);
    }
    for (const name of starting) {
      if (shown.has(name) || timers.has(name)) continue;
      timers.set(
        name,
        setTimeout(() => {
          timers.delete(name);
          if (startingNow().has(name)) show(name);
        }, SHOW_AFTER_MS),
      );
    }
  };

  const sub = manager.onDidChange(update);
  update();
  return new vscode.Disposable(() => {
    sub.dispose();
    for (const t of timers.values()) clearTimeout(t);
    for (const done of shown.values()) done();
    timers.clear();
    shown.clear();
  });
}
