/** The one typed host <-> webview protocol. zod only: no `vscode`, no node modules. */
export * from './agent-event';
export * from './host-messages';
export * from './meter';
export * from './model-picker';
export * from './webview-messages';
export * from './parse';
export * from './dispatch';
export * from './ready-queue';
