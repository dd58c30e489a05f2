/**
 * Dispatch by message name through a table of handlers, never a switch: the mapped type
 * makes the compiler demand one handler per message type and give each the narrowed shape.
 */

export type Discriminated = { type: string };

export type HandlerTable<U extends Discriminated, R = void, Ctx = void> = {
  [K in U['type']]: (msg: Extract<U, { type: K }>, ctx: Ctx) => R;
};

/** Calls the handler registered for `msg.type`. */
export function dispatch<U extends Discriminated, R, Ctx>(table: HandlerTable<U, R, Ctx>, msg: U, ctx: Ctx): R {
  const handler = table[msg.type as U['type']] as (m: U, c: Ctx) => R;
  return handler(msg, ctx);
}
