/**
 * `snowpea run --budget` as a user runs it: the built CLI as a child process against the scripted
 * server. Without a terminal (or with --yes) a request over the budget is never sent: the run
 * stops and says so (exit code 4); on a terminal it asks, and a raise lets the turn go on.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, cliWorld } from './run-cli';
import { ptyCli } from './pty-cli';
import { budgetFlag } from '../../../extension/cli/flag-checks';

/** gpt-4o at list prices ($2.50 a million input tokens, $10 output): 3,000 tokens in and 10 out cost $0.0076. */
const USAGE = { prompt_tokens: 3000, completion_tokens: 10, cached_tokens: 0 };

describe('snowpea run --budget: the money budget on the command line', function () {
  this.timeout(60000);
  const world = cliWorld('sp-budget');
  const model = () => ['--base-url', world.server.baseUrl, '--model', 'gpt-4o'];

  it('without a terminal, a request over the budget is not sent: the run stops, says why, and exits 4', async () => {
    world.server.enqueue({ text: 'never sent' });
    const run = await cli(['run', 'hello', ...model(), '--budget', '0.0001'], { cwd: world.ws, home: world.home });
    assert.equal(run.code, 4, run.stderr);
    assert.equal(world.server.chatRequests().length, 0);
    assert.match(run.stderr, /snowpea: The next request to gpt-4o \(~\$0\.\d{4}, 0% of its prompt expected from the cache\) would pass this turn's budget of \$0\.0001 \(\$0 spent\); no terminal to ask whether to spend more, so the turn stops \(raise it with --budget\)\./);
    assert.match(run.stderr, /snowpea: Stopped at the budget: .* Send a message to go on, or raise the budget/);
  });

  it('--yes approves tool calls, never spending: a turn over its budget after its first round stops there, the round kept', async () => {
    world.server.enqueue({ toolCalls: [{ name: 'list_dir', arguments: '{"path":"."}' }], usage: USAGE }, { text: 'never sent' });
    const run = await cli(['run', 'what is here?', ...model(), '--budget', 'turn=0.01', '--yes', '--json'], { cwd: world.ws, home: world.home });
    assert.equal(run.code, 4, run.stderr);
    assert.equal(world.server.chatRequests().length, 1, 'round 1 ($0.0075) went; round 2 would have passed $0.01');
    assert.match(run.stderr, /--yes approves tool calls, never spending past a budget, so the turn stops/);
    const lines = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
    const told = lines.filter((l) => l.type === 'cost.next');
    assert.deepEqual(
      told.map((l) => l.round),
      [1, 2],
      'the expected cost before each request, the one not sent included',
    );
    assert.equal(told[1].budget.turn.limit, 0.01);
    assert.equal(told[1].budget.turn.spent, 0.0076, 'round 1 at list prices: 3,000 input and 10 output tokens (rounded like the meter)');
    assert.ok(told[1].promptTokens >= 3000 && told[1].cost > 0.0025, JSON.stringify(told[1]));
    assert.deepEqual(
      lines.filter((l) => l.type === 'turn.end').map((l) => l.reason),
      ['budget'],
    );
    const id = lines.find((l) => l.type === 'turn.start')!.sessionId;
    // The session is kept with its round: it can be resumed.
    const show = await cli(['sessions', 'show', id], { cwd: world.ws, home: world.home });
    assert.equal(show.code, 0, show.stderr);
  });

  it('--budget sets only the budgets it names: the session budget from ~/.snowpea/settings.json still holds', async () => {
    fs.writeFileSync(path.join(world.home, 'settings.json'), JSON.stringify({ agent: { budget: { session: 0.0002 } } }));
    world.server.enqueue({ text: 'never sent' });
    const run = await cli(['run', 'hello', ...model(), '--budget', 'turn=5'], { cwd: world.ws, home: world.home });
    assert.equal(run.code, 4, run.stderr);
    assert.match(run.stderr, /would pass this session's budget of \$0\.0002 \(\$0 spent\)/);
    assert.equal(world.server.chatRequests().length, 0);
  });

  it('a --budget that is not an amount is refused before anything is sent', async () => {
    for (const bad of ['abc', '0', 'turn=-1', 'week=3', 'turn=1,turn=2', '1,2', '1e3', '2000000']) assert.throws(() => budgetFlag(bad), /--budget: give an amount \(this turn\), or turn=AMOUNT and\/or session=AMOUNT/, bad);
    assert.deepEqual(budgetFlag('0.50'), { turn: 0.5 });
    assert.deepEqual(budgetFlag('session=5'), { session: 5 });
    assert.deepEqual(budgetFlag(' turn = .25 , session=3 '), { turn: 0.25, session: 3 });
    const run = await cli(['run', 'hello', ...model(), '--budget', 'week=3'], { cwd: world.ws, home: world.home });
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /^snowpea: --budget: give an amount/);
    assert.equal(world.server.chatRequests().length, 0);
  });

  it('on a terminal it asks: raise to a new amount, and the turn goes on', async () => {
    world.server.enqueue({ toolCalls: [{ name: 'list_dir', arguments: '{"path":"."}' }], usage: USAGE }, { text: 'Nothing much here.', usage: USAGE });
    const run = await ptyCli(['run', 'what is here?', ...model(), '--budget', '0.01'], {
      cwd: world.ws,
      home: world.home,
      answers: [
        { when: /\[c\]ontinue once \/ \[r\]aise \/ \[S\]top: $/, type: 'r' },
        { when: /New turn budget, more than \$0\.\d+ \(empty: stop\): \$$/, type: '0.005' },
        { when: /is not an amount above \$0\.\d+[\s\S]*New turn budget, more than \$0\.\d+ \(empty: stop\): \$$/, type: '0.50' },
      ],
    });
    // gpt-4o's family caches: most of the second request is expected from the cache.
    assert.match(run.raw, /The next request to gpt-4o \(~\$0\.\d{4}, \d+% of its prompt expected from the cache\) would pass this turn's budget of \$0\.010 \(\$0\.0076 spent\)\.\r\n\[c\]ontinue once/);
    assert.match(run.raw, /Nothing much here\./);
    assert.equal(run.code, 0, run.raw);
    assert.equal(world.server.chatRequests().length, 2);
  });
});
