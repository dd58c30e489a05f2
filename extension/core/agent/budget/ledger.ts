import type { Spent } from './types';
import { SessionStates } from '../../conversation/session-states';

interface Account {
  session: number;
  /** The turn being counted, and what it has cost. */
  turnNo: number;
  turn: number;
}

/**
 * What each session has cost, in total and in its current turn. A subagent's spending counts for
 * its root session (the caller says which). A session is opened with what it cost before this
 * agent saw it (its stored usage, priced now), so a resumed session keeps its total.
 */
export class SpendLedger {
  private readonly accounts: Map<string, Account>;

  constructor(states: SessionStates = new SessionStates()) {
    this.accounts = states.slice('budget spending');
  }

  has(sessionId: string): boolean {
    return this.accounts.has(sessionId);
  }

  /** Starts counting a session that cost `before` already. */
  open(sessionId: string, turnNo: number, before: number): void {
    if (!this.accounts.has(sessionId)) this.accounts.set(sessionId, { session: before, turnNo, turn: 0 });
  }

  /** `amount` spent in the session's turn `turnNo` (a later turn starts its count at 0). */
  add(sessionId: string, turnNo: number, amount: number): void {
    const a = this.account(sessionId, turnNo);
    a.session += amount;
    a.turn += amount;
  }

  spent(sessionId: string, turnNo: number): Spent {
    const a = this.account(sessionId, turnNo);
    return { turn: a.turn, session: a.session };
  }

  private account(sessionId: string, turnNo: number): Account {
    let a = this.accounts.get(sessionId);
    if (!a) this.accounts.set(sessionId, (a = { session: 0, turnNo, turn: 0 }));
    if (a.turnNo !== turnNo) {
      a.turnNo = turnNo;
      a.turn = 0;
    }
    return a;
  }
}
