import { randomUUID } from 'node:crypto';
import type { ComposeInput } from '../input/compose';

/**
 * How a message sent while a turn runs reaches the model: `steer` at the turn's next round
 * boundary (appended after that round's tool results, as the user's message), `queue` as a turn of
 * its own once the running turn has ended.
 */
export type Delivery = 'steer' | 'queue';
export const deliveries = ['steer', 'queue'] as const;

/** Most messages one chat holds waiting. */
export const MAX_QUEUED = 20;

export interface QueuedMessage {
  id: string;
  input: ComposeInput;
  delivery: Delivery;
}

/** A queue as it is kept and shown: its messages in order, and whether it waits for the user (after a stop, a failed turn, a reload). */
export interface QueueState {
  items: QueuedMessage[];
  held: boolean;
}

/** Why a queue operation was refused: said to the user, nothing changed. */
export class QueueRefused extends Error {}

/**
 * The messages a chat's session holds while a turn runs: in the order sent, each with its
 * delivery. Steering messages are taken together at a round boundary; when the turn ends, the
 * next turn is the first steering message left (it missed the boundary), else the first queued
 * one. A held queue sends nothing on its own until the user sends one of its messages.
 */
export class MessageQueue {
  private items: QueuedMessage[];
  private isHeld: boolean;

  constructor(
    private readonly changed: (state: QueueState) => void,
    init?: QueueState,
  ) {
    this.items = init?.items.map((m) => ({ ...m })) ?? [];
    this.isHeld = !!init?.held && this.items.length > 0;
  }

  get size(): number {
    return this.items.length;
  }

  get held(): boolean {
    return this.isHeld;
  }

  snapshot(): QueueState {
    return { items: this.items.map((m) => ({ ...m })), held: this.isHeld };
  }

  add(input: ComposeInput, delivery: Delivery): QueuedMessage {
    if (this.items.length >= MAX_QUEUED) throw new QueueRefused(`${MAX_QUEUED} messages are waiting already: remove one, or wait for the turn to read them.`);
    const message: QueuedMessage = { id: randomUUID(), input, delivery };
    this.items.push(message);
    this.fire();
    return message;
  }

  /** New text for a waiting message (its images stay). */
  edit(id: string, text: string): void {
    const m = this.find(id);
    if (!text.trim() && !m.input.images?.length && !m.input.attach?.length) throw new QueueRefused('A message needs text or an image: remove it instead.');
    m.input = { ...m.input, text };
    this.fire();
  }

  remove(id: string): void {
    this.find(id);
    this.items = this.items.filter((m) => m.id !== id);
    this.fire();
  }

  setDelivery(id: string, delivery: Delivery): void {
    const m = this.find(id);
    if (m.delivery === delivery) return;
    m.delivery = delivery;
    this.fire();
  }

  /** The steering messages, in order, for the round boundary: they leave the queue. */
  takeSteering(): QueuedMessage[] {
    const taken = this.items.filter((m) => m.delivery === 'steer');
    if (!taken.length) return [];
    this.items = this.items.filter((m) => m.delivery !== 'steer');
    this.fire();
    return taken;
  }

  /** The next turn's message (a steering one that missed its boundary first), taken; undefined when none waits. */
  next(): QueuedMessage | undefined {
    const m = this.items.find((x) => x.delivery === 'steer') ?? this.items[0];
    if (m) this.take(m.id);
    return m;
  }

  /** Takes one message out (the user's Send now); also lets the rest go on. */
  take(id: string): QueuedMessage {
    const m = this.find(id);
    this.items = this.items.filter((x) => x !== m);
    this.isHeld = false;
    this.fire();
    return m;
  }

  /** Holds a non-empty queue (a turn stopped or failed), or lets it go on. */
  hold(on: boolean): void {
    const held = on && this.items.length > 0;
    if (held === this.isHeld) return;
    this.isHeld = held;
    this.fire();
  }

  private find(id: string): QueuedMessage {
    const m = this.items.find((x) => x.id === id);
    if (!m) throw new QueueRefused('That message is no longer waiting: it was sent already or removed.');
    return m;
  }

  private fire(): void {
    if (!this.items.length) this.isHeld = false;
    this.changed(this.snapshot());
  }
}
