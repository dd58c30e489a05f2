import { parseHostMessage, parseWebviewMessage, type HostMessage, type WebviewMessage } from '../../../extension/protocol';

/** The object VS Code injects into webviews; acquireVsCodeApi() may be called once per page. */
export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare global {
  function acquireVsCodeApi(): VsCodeApi;
}

export interface Logger {
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

/** The webview's side of the protocol: every message in and out is checked against the zod schemas. */
export interface Bridge {
  /** Posts a message to the host; returns false (and logs) when it does not match the protocol. */
  post(msg: WebviewMessage): boolean;
  /** Calls `handler` for each valid host message; invalid ones are logged and ignored. */
  onMessage(handler: (msg: HostMessage) => void): () => void;
  getState(): unknown;
  setState(state: unknown): void;
}

export function createBridge(api: VsCodeApi, target: Window = window, log: Logger = console): Bridge {
  return {
    post(msg) {
      const checked = parseWebviewMessage(msg);
      if (!checked.ok) {
        log.error(`[snowpea] not sent: ${checked.error}`);
        return false;
      }
      api.postMessage(checked.msg);
      return true;
    },
    onMessage(handler) {
      const listener = (event: MessageEvent) => {
        const parsed = parseHostMessage(event.data);
        if (!parsed.ok) {
          log.warn(`[snowpea] ignored ${parsed.error}`);
          return;
        }
        handler(parsed.msg);
      };
      target.addEventListener('message', listener);
      return () => target.removeEventListener('message', listener);
    },
    getState: () => api.getState(),
    setState: (state) => api.setState(state),
  };
}
