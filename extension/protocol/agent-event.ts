/**
 * The agent event as the host forwards it to the webview: the core's own schema
 * (extension/core/conversation/events.ts), re-exported so the webview imports it from protocol/.
 * Only zod and types come with it: events.ts imports nothing else (other files of the vocabulary
 * may use node builtins, so the webview imports events through here, never core/conversation).
 */
import { agentEventSchema, type AgentEvent, type MeterEvent } from '../core/conversation/events';

export type { CostNextEvent } from '../core/conversation/events';

export { agentEventSchema, turnEndReasons, usageSchema, sessionModes, todoListSchema, todoStatuses, type AgentEventType, type Mode, type TurnEndReason, type TodoItem } from '../core/conversation/events';

/** The events the host forwards in `event` messages: every one but the meter, which is its own `meter` message (meter.ts). */
export type AgentEventMessage = Exclude<AgentEvent, MeterEvent>;

export const agentEventMessageSchema = agentEventSchema.refine((e): e is AgentEventMessage => e.type !== 'meter', {
  message: 'the meter is posted as its own `meter` message, not inside an `event`',
});
