/**
 * The agent event as the host forwards it to the webview: the core's own schema
 * (extension/core/conversation/events.ts), re-exported so the webview imports it from protocol/.
 * Only zod and types come with it (the vocabulary imports no node module).
 */
import type { AgentEvent } from '../core/conversation/events';

export { agentEventSchema, turnEndReasons, usageSchema, type AgentEventType, type TurnEndReason } from '../core/conversation/events';

export type AgentEventMessage = AgentEvent;
