import * as vscode from 'vscode';

/** Diagnostics count as settled once they have been quiet this long after a change. */
const QUIET_MS = 500;
/** However busy the language services, a wait ends this long after it began. */
const MAX_MS = 4000;

/** When some files' diagnostics last changed, and a bounded wait for them to settle. */
export class DiagnosticChanges implements vscode.Disposable {
  private last = 0;
  private wake?: () => void;
  private readonly sub: vscode.Disposable;

  constructor(matches: (uri: vscode.Uri) => boolean) {
    this.sub = vscode.languages.onDidChangeDiagnostics((e) => {
      if (!e.uris.some(matches)) return;
      this.last = Date.now();
      this.wake?.();
    });
  }

  /**
   * Resolves once the diagnostics changed at or after `start` and then stayed quiet for QUIET_MS
   * (MAX_MS after `start` at most), or when none changed within `noChangeMs`; at once on abort.
   */
  async settle(start: number, noChangeMs: number, signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const deadline = this.last >= start ? Math.min(this.last + QUIET_MS, start + MAX_MS) : start + noChangeMs;
      const wait = deadline - Date.now();
      if (wait <= 0) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          this.wake = undefined;
          resolve();
        };
        const timer = setTimeout(done, wait);
        this.wake = done;
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }

  dispose(): void {
    this.wake?.();
    this.sub.dispose();
  }
}
