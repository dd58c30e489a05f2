/**
 * Type-level guard: the protocol's event schema and the core's `AgentEvent` must describe
 * the same shapes. If either side changes alone, this file stops compiling. Type-only
 * imports, so nothing from the core ends up in the webview bundle.
 */
import type { AgentEvent } from '../core/conversation/events';
import type { AgentEventMessage } from './agent-event';

type Assignable<From, To> = [From] extends [To] ? true : false;
type Expect<T extends true> = T;

export type ProtocolAcceptsEveryCoreEvent = Expect<Assignable<AgentEvent, AgentEventMessage>>;
export type CoreAcceptsEveryProtocolEvent = Expect<Assignable<AgentEventMessage, AgentEvent>>;
/** Same set of event names on both sides (catches a union member the other side lacks). */
export type SameEventNames = Expect<Assignable<AgentEvent['type'], AgentEventMessage['type']>> &
  Expect<Assignable<AgentEventMessage['type'], AgentEvent['type']>>;
