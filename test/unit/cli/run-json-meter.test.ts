import assert from 'node:assert/strict';
import { cli, cliWorld } from './run-cli';

describe('snowpea run --json: the context meter', function () {
  this.timeout(60000);
  const world = cliWorld('sp-meter');

  it('each round with usage prints its meter line after its usage line, with the window, the deferral saving and the cost', async () => {
    world.server.enqueue(
      { toolCalls: [{ id: 'c1', name: 'list_dir', arguments: '{"path":"."}' }], usage: { prompt_tokens: 3000, completion_tokens: 20, cached_tokens: 0 } },
      { text: 'Nothing here.', usage: { prompt_tokens: 3200, completion_tokens: 10, cached_tokens: 2048 } },
    );
    const run = await cli(['run', 'what is here?', '--base-url', world.server.baseUrl, '--model', 'gpt-4o', '--json'], { cwd: world.ws, home: world.home });
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const types = lines.map((l) => l.type);
    assert.equal(types.at(-1), 'turn.end');
    const meters = lines.filter((l) => l.type === 'meter');
    assert.equal(meters.length, 2, types.join(' '));
    for (const m of meters) assert.equal(types[lines.indexOf(m) - 1], 'usage', 'the meter follows its usage');
    const [first, second] = meters;
    assert.deepEqual([first.round, second.round], [1, 2]);
    assert.deepEqual([second.promptTokens, second.cachedTokens, second.completionTokens], [3200, 2048, 10]);
    assert.equal(typeof second.contextWindow, 'number');
    assert.ok((second.deferredTools as number) > 0, 'the deferred tools the request left out');
    const cost = second.cost as { round: number; session: number };
    assert.ok(cost.round > 0 && cost.session > cost.round, 'gpt-4o has list prices: the session total adds both rounds');
  });
});
