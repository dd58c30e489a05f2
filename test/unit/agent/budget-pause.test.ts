/**
 * The money budget's rules (core/agent/budget): when the next request would pass agent.budget the
 * turn pauses before sending it, and the answer decides: continue once, raise, stop; nobody to ask
 * stops. Run through the real agent loop against the scripted server, with a model priced by the
 * settings at $0.001 a token (no caching), so each request costs about its size in tokens.
 */
import assert from 'node:assert/strict';
import { BudgetRaises, passedBudgets } from '../../../extension/core/agent/budget/rules';
import type { BudgetAnswer, BudgetAsker, BudgetPause } from '../../../extension/core/agent/budget/types';
import type { AgentEvent, CostNextEvent } from '../../../extension/core/conversation/events';
import type { Session } from '../../../extension/core/conversation/session';
import { createHarness, type Harness } from '../../fixtures/agent-harness';

const PRICED = { 'model.name': 'priced-model', 'model.inputPrice': 1000, 'model.outputPrice': 0 };
const read = (path: string) => ({ toolCalls: [{ name: 'read_file', arguments: JSON.stringify({ path }) }] });

/** Answers pauses from a list; records each pause and how many requests the server had then. */
function scriptedAsker(h: () => Harness, answers: BudgetAnswer[]): BudgetAsker & { pauses: Array<BudgetPause & { requestsThen: number }> } {
  const pauses: Array<BudgetPause & { requestsThen: number }> = [];
  return {
    pauses,
    async ask(pause) {
      pauses.push({ ...pause, requestsThen: h().server.chatRequests().length });
      const a = answers.shift();
      if (!a) throw new Error(`an unexpected pause: ${JSON.stringify(pause)}`);
      return a;
    },
  };
}

const told = (h: Harness, sessionId?: string) => h.events.filter((e): e is CostNextEvent => e.type === 'cost.next' && (!sessionId || e.sessionId === sessionId));
const errors = (h: Harness) => h.events.filter((e): e is Extract<AgentEvent, { type: 'error' }> => e.type === 'error');

/** One answered round with no budget: what a request of this session costs (its meter's round cost). */
async function calibrate(h: Harness, session: Session): Promise<number> {
  h.server.enqueue({ text: 'Hello.' });
  const r = await h.agent.runTurn(session, 'hello', new AbortController().signal);
  assert.equal(r.reason, 'done');
  const meter = h.events.filter((e): e is Extract<AgentEvent, { type: 'meter' }> => e.type === 'meter').pop();
  assert.ok(meter?.cost && meter.cost.round > 0.5, 'a request costs a few hundred tokens or more at $0.001 a token');
  return meter.cost.round;
}

describe('budget: the pause before a request would pass agent.budget', function () {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('the rules: which budgets a request would pass; a raise holds for its turn (turn) or session, until the setting changes', () => {
    assert.deepEqual(passedBudgets({ turn: 1, session: null }, { turn: 0.6, session: 9 }, 0.3), []);
    assert.deepEqual(passedBudgets({ turn: 1, session: 10 }, { turn: 0.8, session: 9.9 }, 0.3), [
      { scope: 'turn', limit: 1, spent: 0.8 },
      { scope: 'session', limit: 10, spent: 9.9 },
    ]);
    assert.deepEqual(passedBudgets({ turn: null, session: null }, { turn: 1e6, session: 1e6 }, 1e6), []);
    const raises = new BudgetRaises();
    const set = { turn: 1, session: 10 };
    const passes = passedBudgets(set, { turn: 0.8, session: 9.9 }, 0.3);
    raises.apply('s', 3, set, passes, { decision: 'raise', turn: 2, session: 20 });
    assert.deepEqual(raises.limits('s', 3, set), { turn: 2, session: 20 });
    assert.deepEqual(raises.limits('s', 4, set), { turn: 1, session: 20 }, 'the next turn: its own budget again, the session keeps its raise');
    assert.deepEqual(raises.limits('s', 4, { turn: 1, session: 50 }), { turn: 1, session: 50 }, 'a changed setting is the newer word');
    assert.deepEqual(raises.limits('other', 3, set), set);
    // Lowering is not raising; a scope that was not passed is not touched.
    raises.apply('t', 1, set, [passes[0]], { decision: 'raise', turn: 0.5, session: 99 });
    assert.deepEqual(raises.limits('t', 1, set), set);
  });

  it('continue once: the request goes, and the next one over the budget asks again', async () => {
    const asker = scriptedAsker(() => h!, [{ decision: 'continue' }, { decision: 'continue' }]);
    h = await createHarness({ files: { 'a.ts': 'export const a = 1;\n', 'b.ts': 'export const b = 2;\n' }, settings: PRICED, askBudget: asker });
    const session = h.agent.newSession();
    const perRequest = await calibrate(h, session);
    h.settings['agent.budget'] = { turn: perRequest * 1.5, session: null };
    h.server.enqueue(read('a.ts'), read('b.ts'), { text: 'Both read.' });
    const before = h.server.chatRequests().length;
    const r = await h.agent.runTurn(session, 'read a and b', new AbortController().signal);
    assert.equal(r.reason, 'done');
    assert.equal(r.rounds, 3);
    assert.equal(asker.pauses.length, 2, 'rounds 2 and 3 each asked');
    const [first, second] = asker.pauses;
    assert.equal(first.requestsThen, before + 1, 'the paused request was not sent before the answer');
    assert.equal(second.requestsThen, before + 2);
    assert.equal(first.round, session.round - 1);
    assert.equal(first.sessionId, session.id);
    assert.equal(first.model, 'priced-model');
    assert.deepEqual(first.passes.map((p) => [p.scope, p.limit]), [['turn', perRequest * 1.5]]);
    assert.ok(first.passes[0].spent > 0.9 * perRequest && first.passes[0].spent < first.passes[0].limit, 'what round 1 of this turn cost');
    assert.ok(first.passes[0].spent + first.expected.cost > first.passes[0].limit);
  });

  it('raise: the turn goes on under the new budget; a turn budget raised holds for that turn only', async () => {
    const asker = scriptedAsker(() => h!, [{ decision: 'raise', turn: 1000 }, { decision: 'stop' }]);
    h = await createHarness({ files: { 'a.ts': 'export const a = 1;\n' }, settings: PRICED, askBudget: asker });
    const session = h.agent.newSession();
    const perRequest = await calibrate(h, session);
    h.settings['agent.budget'] = { turn: perRequest * 1.5, session: null };
    h.server.enqueue(read('a.ts'), read('a.ts'), { text: 'Done.' });
    const r = await h.agent.runTurn(session, 'read a twice', new AbortController().signal);
    assert.equal(r.reason, 'done');
    assert.equal(asker.pauses.length, 1, 'round 3 fits the raised budget');
    const after = told(h).filter((e) => e.round === asker.pauses[0].round);
    assert.deepEqual(
      after.map((e) => e.budget.turn.limit),
      [perRequest * 1.5, 1000],
      'the meter hears the expected cost, then the raised budget',
    );
    // The next turn has its own budget again: it pauses (and stops) at its second request.
    h.server.enqueue(read('a.ts'), { text: 'never sent' });
    const next = await h.agent.runTurn(session, 'once more', new AbortController().signal);
    assert.equal(next.reason, 'budget');
    assert.equal(asker.pauses.length, 2);
    assert.equal(asker.pauses[1].passes[0].limit, perRequest * 1.5);
  });

  it('stop: the turn ends at the budget (reason budget) with what was done kept; the next message starts a new turn', async () => {
    const asker = scriptedAsker(() => h!, [{ decision: 'stop' }]);
    h = await createHarness({ files: { 'a.ts': 'export const a = 1;\n' }, settings: PRICED, askBudget: asker });
    const session = h.agent.newSession();
    const perRequest = await calibrate(h, session);
    h.settings['agent.budget'] = { turn: perRequest * 1.5, session: null };
    h.server.enqueue(read('a.ts'), { text: 'never sent' });
    const sent = h.server.chatRequests().length;
    const r = await h.agent.runTurn(session, 'read a', new AbortController().signal);
    assert.equal(r.reason, 'budget');
    assert.equal(h.server.chatRequests().length, sent + 1, 'the request over the budget was never sent');
    const err = errors(h).pop()!;
    assert.equal(err.kind, 'budget');
    assert.match(err.message, /^Stopped at the budget: the next request \(~\$\d+\.\d+, 0% of its prompt expected from the cache\) would pass this turn's budget of \$\d+\.\d+ \(\$\d+\.\d+ spent\)\. Send a message to go on, or raise the budget/);
    const end = h.events.filter((e): e is Extract<AgentEvent, { type: 'turn.end' }> => e.type === 'turn.end').pop();
    assert.equal(end?.reason, 'budget');
    const last = session.messages[session.messages.length - 1];
    assert.equal(last.role, 'tool', 'round 1 with its tool result is kept');
    // A new turn counts from zero: one request fits.
    const again = await h.agent.runTurn(session, 'go on', new AbortController().signal);
    assert.equal(again.reason, 'done');
    assert.equal(asker.pauses.length, 1);
  });

  it('nobody to ask (no terminal, --yes, no chat): the turn stops, never spending past the budget', async () => {
    h = await createHarness({ settings: PRICED });
    const session = h.agent.newSession();
    const perRequest = await calibrate(h, session);
    h.settings['agent.budget'] = { turn: perRequest * 0.5, session: null };
    const sent = h.server.chatRequests().length;
    const r = await h.agent.runTurn(session, 'hello again', new AbortController().signal);
    assert.equal(r.reason, 'budget');
    assert.equal(h.server.chatRequests().length, sent);
  });

  it('the session budget counts every turn and a resumed session\'s stored rounds; a raise of it holds for later turns', async () => {
    const asker = scriptedAsker(() => h!, [{ decision: 'raise', session: 1000 }]);
    h = await createHarness({ settings: PRICED, askBudget: asker });
    const session = h.agent.newSession();
    const perRequest = await calibrate(h, session);
    h.server.enqueue({ text: 'Second.' });
    await h.agent.runTurn(session, 'again', new AbortController().signal);
    await h.store.flush();
    // Opened afresh (as after a reload, or another CLI run): what it cost so far comes from state.db.
    h.agent.releaseSession(session.id);
    const resumed = h.agent.openSession(session.id)!;
    h.settings['agent.budget'] = { turn: null, session: perRequest * 2.5 };
    h.server.enqueue({ text: 'Third.' }, { text: 'Fourth.' });
    assert.equal((await h.agent.runTurn(resumed, 'third', new AbortController().signal)).reason, 'done');
    assert.equal(asker.pauses.length, 1, 'two stored rounds plus a third pass 2.5 requests');
    const p = asker.pauses[0];
    assert.equal(p.passes[0].scope, 'session');
    assert.ok(p.passes[0].spent > 1.9 * perRequest && p.passes[0].spent < 2.5 * perRequest, `the stored rounds (${p.passes[0].spent})`);
    assert.equal((await h.agent.runTurn(resumed, 'fourth', new AbortController().signal)).reason, 'done', 'the raised session budget holds');
    assert.equal(asker.pauses.length, 1);
    const last = told(h, resumed.id).pop()!.budget.session;
    assert.ok(last.spent > 2.9 * perRequest && last.limit === 1000, 'before the fourth request: three rounds spent, under the raised budget');
  });

  it('a subagent\'s requests count for its parent\'s turn; a stop during one holds for the parent, which is not asked again', async () => {
    const asker = scriptedAsker(() => h!, [{ decision: 'stop' }]);
    h = await createHarness({ files: { 'a.ts': 'export const a = 1;\n' }, settings: PRICED, askBudget: asker });
    const session = h.agent.newSession();
    const perRequest = await calibrate(h, session);
    h.settings['agent.budget'] = { turn: perRequest * 1.5, session: null };
    h.server.enqueue(
      { toolCalls: [{ name: 'delegate_task', arguments: JSON.stringify({ task: 'read a.ts', agent: 'explore' }) }] },
      read('a.ts'), // the child's first request: over the budget (the parent's round 1 spent most of it)
      { text: 'never sent' },
    );
    const sent = h.server.chatRequests().length;
    const r = await h.agent.runTurn(session, 'delegate it', new AbortController().signal);
    assert.equal(r.reason, 'budget');
    assert.equal(h.server.chatRequests().length, sent + 1, 'only the parent\'s first request went out');
    assert.equal(asker.pauses.length, 1, 'the parent was not asked again after the stop');
    assert.equal(asker.pauses[0].sessionId, session.id, 'the pause names the parent\'s session');
    assert.equal(asker.pauses[0].round, 1, 'it paused the child\'s first request (the parent is at round 3)');
    assert.deepEqual([...new Set(told(h).map((e) => e.sessionId))], [session.id], 'only the parent\'s requests are on the meter');
    const delegated = session.messages.find((m) => m.role === 'tool' && m.toolName === 'delegate_task');
    assert.match(String(delegated?.content), /budget/i);
  });

  it('a model with no price: the budget cannot be enforced, said once, and nothing pauses', async () => {
    const asker = scriptedAsker(() => h!, []);
    h = await createHarness({ settings: { 'model.name': 'my-local-model', 'agent.budget': { turn: 0.000001, session: null } }, askBudget: asker });
    const session = h.agent.newSession();
    h.server.enqueue({ text: 'One.' }, { text: 'Two.' });
    assert.equal((await h.agent.runTurn(session, 'one', new AbortController().signal)).reason, 'done');
    assert.equal((await h.agent.runTurn(session, 'two', new AbortController().signal)).reason, 'done');
    const notices = h.events.filter((e): e is Extract<AgentEvent, { type: 'budget.notice' }> => e.type === 'budget.notice');
    assert.deepEqual(
      notices.map((n) => n.text),
      ['Your budget (agent.budget) cannot be enforced: Snowpea has no price for the model "my-local-model"; set snowpea.model.inputPrice and snowpea.model.outputPrice to hold it to one.'],
    );
    assert.equal(told(h).length, 0, 'no expected cost without a price');
  });

  it('Stop while paused ends the turn as cancelled, and nothing is sent', async () => {
    const controller = new AbortController();
    let paused!: () => void;
    const pausedNow = new Promise<void>((resolve) => (paused = resolve));
    const asker: BudgetAsker = {
      ask: (_p, signal) =>
        new Promise((resolve) => {
          paused();
          signal.addEventListener('abort', () => resolve({ decision: 'stop' }), { once: true });
        }),
    };
    h = await createHarness({ settings: PRICED, askBudget: asker });
    const session = h.agent.newSession();
    const perRequest = await calibrate(h, session);
    h.settings['agent.budget'] = { turn: perRequest * 0.5, session: null };
    const sent = h.server.chatRequests().length;
    const turn = h.agent.runTurn(session, 'again', controller.signal);
    await pausedNow;
    controller.abort();
    assert.equal((await turn).reason, 'cancelled');
    assert.equal(h.server.chatRequests().length, sent);
  });
});
