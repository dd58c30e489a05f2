import type { MeterEvent } from '../core/conversation/events';

/**
 * The context meter of one model round, host -> webview: the agent's `meter` event as it is
 * (extension/core/conversation/events.ts defines its fields), posted after that round's `usage`.
 * Every saving is optional: the webview shows what it gets.
 */
export { meterEventSchema as meterMessageSchema } from '../core/conversation/events';

export type MeterMessage = MeterEvent;
