import type { Message } from '../conversation/messages';
import { SessionStates } from '../conversation/session-states';
import { keptByViews, oldCallArgsStubFor, oldRoundStubFor, viewStubFor, type PruneOptions } from './prune';

/** A tool result the request carries as its stub: the call, and the stub the model sees instead of the result. */
export interface PrunedCall {
  callId: string;
  stub: string;
}

/** What a request carries after pruning, and what pruning left out (the context meter). */
export interface PrunedRequest {
  messages: Message[];
  /** Tool results the request does not carry in full. */
  prunedResults: number;
  /** Those results by call id (each id once), oldest pruning first, with the stub sent instead. */
  prunedCalls: PrunedCall[];
  /** Characters of tool output left out of the request. */
  savedChars: number;
}

interface State {
  opts: PruneOptions;
  /** Whether a tool's results are kept by recency of views (opts.pruneRule). */
  byViews: (toolName: string) => boolean;
  /** The transcript messages seen so far, by reference: a transcript that no longer starts with them starts over. */
  seen: Message[];
  /** The request copy of `seen`: each message itself, or its stub once its round is old. */
  out: Message[];
  /** The tool round (from 1, oldest first) each message belongs to; 0 for none (and for the assistant message that opens it). */
  roundOf: number[];
  /** For the assistant message that opens a tool round, that round; 0 for every other message. */
  callRoundOf: number[];
  /** Tool rounds so far, and the one the messages being read belong to (0 after an assistant message without tool calls). */
  rounds: number;
  open: number;
  /** Messages before this index whose round is old have been stubbed. */
  agedTo: number;
  /** Rounds 1..cutoff are old (stubbed). Rolling: always rounds - keepToolRounds; cache-aware: moves in batches (moveCutoff below). */
  cutoff: number;
  /** Indexes of the results kept by views (skill_view's), and how many of the oldest have been stubbed. */
  views: number[];
  viewsAged: number;
  /** The arguments of each call kept by views, by call id (its stub repeats them). */
  viewArgs: Map<string, string>;
  /**
   * Call ids of the results stubbed, with how many results each (a reused id counts once, as in
   * pruneOldToolOutputs) and the latest stub made for the id.
   */
  pruned: Map<string, { n: number; stub: string }>;
  savedChars: number;
}

/**
 * pruneOldToolOutputs (prune.ts) kept up to date incrementally per session. A transcript only
 * grows between rounds and a round only ever gets older, so each call reads the new messages and
 * stubs the results that have just crossed the cutoff, instead of rebuilding the whole copy; a
 * stub, once made, is the same object in every later request. The result equals
 * pruneOldToolOutputs on the same transcript: when the transcript is not the one seen plus new
 * messages (a message replaced or removed, another session's array) or the options changed, the
 * state is rebuilt from scratch.
 */
export class PruneCache {
  private readonly states: Map<string, State>;

  /** Keyed by session id, in the agent's per-session states (default: the cache's own). */
  constructor(states: SessionStates = new SessionStates()) {
    this.states = states.slice('pruned transcript');
  }

  prune(key: string, messages: Message[], opts: PruneOptions): PrunedRequest {
    if (!opts.enabled) {
      this.states.delete(key);
      return { messages, prunedResults: 0, prunedCalls: [], savedChars: 0 };
    }
    let st = this.states.get(key);
    if (!st || !sameOptions(st.opts, opts) || !extends_(messages, st.seen)) {
      st = fresh(opts);
      this.states.set(key, st);
    }
    for (let i = st.seen.length; i < messages.length; i++) {
      // Each assistant message answered a request built from the messages before it: decide that
      // request's cutoff first, so a rebuilt state (a resumed session) repeats the live decisions.
      if (messages[i].role === 'assistant') moveCutoff(st);
      read(st, messages[i], i);
    }
    moveCutoff(st);
    age(st);
    const prunedCalls = [...st.pruned].map(([callId, p]) => ({ callId, stub: p.stub }));
    return { messages: st.out.slice(), prunedResults: st.pruned.size, prunedCalls, savedChars: st.savedChars };
  }
}

function fresh(opts: PruneOptions): State {
  return { opts: { ...opts }, byViews: keptByViews(opts), seen: [], out: [], roundOf: [], callRoundOf: [], rounds: 0, open: 0, agedTo: 0, cutoff: 0, views: [], viewsAged: 0, viewArgs: new Map(), pruned: new Map(), savedChars: 0 };
}

function sameOptions(a: PruneOptions, b: PruneOptions): boolean {
  return (
    a.enabled === b.enabled &&
    a.keepToolRounds === b.keepToolRounds &&
    a.protectRecentViews === b.protectRecentViews &&
    a.pruneRule === b.pruneRule &&
    (a.strategy ?? 'rolling') === (b.strategy ?? 'rolling') &&
    a.prices?.discount === b.prices?.discount &&
    a.prices?.writePremium === b.prices?.writePremium
  );
}

/** Sets the cutoff for a request built from the messages read so far (rolling, or cache-aware in batches). */
function moveCutoff(st: State): void {
  const rolling = st.rounds - st.opts.keepToolRounds;
  if (rolling <= st.cutoff) return;
  if (st.opts.strategy !== 'cache-aware' || !st.opts.prices || worthMoving(st, rolling, st.opts.prices)) st.cutoff = rolling;
}

/**
 * Cache-aware pruning's rule. Moving the cutoff from `st.cutoff` to `to` stubs the results of those
 * rounds (B characters fewer in this request and every later one, where they would otherwise be
 * cached input at `discount`), but changes the request at the first of them, so everything after
 * that point that the previous request already carried (T characters, after stubbing) is sent
 * again uncached and written to the cache (`writePremium`) instead of read from it (`discount`).
 * Move when the saving over the horizon pays for the miss:
 *
 *   B × discount × H  ≥  T × (writePremium − discount),   H = keepToolRounds
 *
 * The saving is counted over the next keepToolRounds requests only. A longer horizon (the Lindy
 * estimate, rounds so far, as this rule first used) moves the cutoff in smaller, more frequent
 * batches, and each batch re-writes the tail; on the bench's 25 real trajectories it also paid for
 * batches just before a session ended. Measured (`npm run bench`, cost ratio to sending
 * everything at 50% / 25% / 10%+125% caching): real trajectories 0.68 / 0.76 / 0.80 with the Lindy
 * horizon against 0.67 / 0.72 / 0.75 with this one, the 60-round synthetic session 0.23 / 0.32 /
 * 0.49 against 0.21 / 0.29 / 0.42. With no caching (discount 1, premium 1) the right side is 0, so
 * it moves every time exactly as rolling does.
 */
function worthMoving(st: State, to: number, prices: { discount: number; writePremium: number }): boolean {
  const { discount, writePremium } = prices;
  if (writePremium - discount <= 0) return true;
  // The previous request ended before the newest assistant message (the one that opened round `rounds`).
  let prevEnd = st.seen.length;
  for (let i = st.seen.length - 1; i >= 0; i--) if (st.seen[i].role === 'assistant') { prevEnd = i; break; }
  let saved = 0;
  let tail = 0;
  let changed = false;
  for (let i = st.agedTo; i < prevEnd; i++) {
    const m = st.seen[i];
    const r = st.roundOf[i];
    // Rounds only grow along the transcript: the already-old ones (<= st.cutoff) all come before the first one this move stubs.
    const c = st.callRoundOf[i];
    const stubbed =
      c > st.cutoff && c <= to ? oldCallArgsStubFor(m) : r > st.cutoff && r <= to && !(m.role === 'tool' && st.byViews(m.toolName)) ? oldRoundStubFor(m) : m;
    if (stubbed !== m) {
      changed = true;
      saved += charsOf(m) - charsOf(stubbed);
    }
    if (changed) tail += charsOf(stubbed);
  }
  if (!changed) return true;
  return saved * discount * st.opts.keepToolRounds >= tail * (writePremium - discount);
}

/** About how many characters a message adds to a request (content, tool-call arguments). */
function charsOf(m: Message): number {
  const content = typeof m.content === 'string' ? m.content.length : Array.isArray(m.content) ? m.content.reduce((n, p) => n + (p.type === 'text' ? p.text.length : 1000), 0) : 0;
  const calls = m.role === 'assistant' ? (m.toolCalls ?? []).reduce((n, c) => n + c.arguments.length + c.name.length, 0) : 0;
  return content + calls + 20;
}

/** `messages` starts with exactly the messages of `seen` (the same objects). */
function extends_(messages: Message[], seen: Message[]): boolean {
  if (messages.length < seen.length) return false;
  for (let i = 0; i < seen.length; i++) if (messages[i] !== seen[i]) return false;
  return true;
}

/** Takes in message `i`: its round (an assistant message with tool calls opens one, any assistant message closes the last). */
function read(st: State, m: Message, i: number): void {
  st.seen.push(m);
  st.out.push(m);
  if (m.role === 'assistant') {
    st.open = m.toolCalls?.length ? ++st.rounds : 0;
    // The oldest call with an id gives its arguments, as in pruneOldToolOutputs.
    for (const c of m.toolCalls ?? []) {
      if (!st.byViews(c.name) || st.viewArgs.has(c.id)) continue;
      st.viewArgs.set(c.id, c.arguments);
      // A result stored before its call (never written by the loop) was stubbed without its arguments: stub it again with them.
      for (let k = 0; k < st.viewsAged; k++) if ((st.seen[st.views[k]] as { toolCallId?: string }).toolCallId === c.id) stubView(st, st.views[k]);
    }
    st.roundOf.push(0);
    st.callRoundOf.push(st.open);
    return;
  }
  st.callRoundOf.push(0);
  st.roundOf.push(m.role === 'tool' || (m.role === 'user' && m.attachedBy) ? st.open : 0);
  if (m.role === 'tool' && st.byViews(m.toolName)) st.views.push(i);
}

/** Stubs what has become old since the last call: results of rounds past keepToolRounds, results kept by views past protectRecentViews. */
function age(st: State): void {
  const cutoff = st.cutoff; // rounds 1..cutoff are old
  // Rounds only grow along the transcript, so the old messages are all before the first young one.
  while (st.agedTo < st.seen.length && st.roundOf[st.agedTo] <= cutoff && st.callRoundOf[st.agedTo] <= cutoff) {
    const i = st.agedTo++;
    const m = st.seen[i];
    if (st.callRoundOf[i] !== 0) replace(st, i, oldCallArgsStubFor(m));
    if (st.roundOf[i] === 0 || (m.role === 'tool' && st.byViews(m.toolName))) continue;
    replace(st, i, oldRoundStubFor(m));
  }
  const oldViews = Math.max(0, st.views.length - st.opts.protectRecentViews);
  for (; st.viewsAged < oldViews; st.viewsAged++) stubView(st, st.views[st.viewsAged]);
}

function stubView(st: State, i: number): void {
  const m = st.seen[i] as Extract<Message, { role: 'tool' }>;
  replace(st, i, viewStubFor(m, st.viewArgs.get(m.toolCallId)));
}

/** Puts the request copy of message `i` in place, keeping the savings in step (a stub may be replaced by another). */
function replace(st: State, i: number, stubbed: Message): void {
  const m = st.seen[i];
  const before = st.out[i];
  if (stubbed === before) return;
  st.out[i] = stubbed;
  if (m.role !== 'tool') return;
  const id = m.toolCallId;
  if (before !== m) {
    st.savedChars -= m.content.length - (before as typeof m).content.length;
    const p = st.pruned.get(id)!;
    if (p.n > 1) p.n--;
    else st.pruned.delete(id);
  }
  if (stubbed !== m) {
    const stub = (stubbed as typeof m).content;
    st.savedChars += m.content.length - stub.length;
    const p = st.pruned.get(id);
    if (p) Object.assign(p, { n: p.n + 1, stub });
    else st.pruned.set(id, { n: 1, stub });
  }
}
