import assert from 'node:assert/strict';
import { recordedCase } from '../../fixtures/provider-cases';
import { cli, cliWorld } from './run-cli';

/** `snowpea run` on what real providers sent (test/fixtures/providers): a whole tool-using turn, reasoning, a cut answer. */
describe('snowpea run on recorded provider responses', function () {
  this.timeout(60000);
  const world = cliWorld('sp-recorded');

  it('DeepSeek thinking with a tool call: the turn completes, the answer alone on stdout, the reasoning on stderr with --verbose, and sent back', async () => {
    const tool = recordedCase('deepseek', 'tool-call-cache-hit-stream');
    const answer = recordedCase('deepseek', 'reasoning-content-stream');
    world.server.enqueue(...tool.steps, ...answer.steps);
    const run = await cli(['run', 'weather in SF?', '--base-url', world.server.baseUrl, '--model', tool.model, '--verbose'], { cwd: world.ws, home: world.home });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), answer.expect.text);
    assert.ok(run.stderr.includes(`thinking: ${tool.expect.reasoning}`), run.stderr);
    assert.ok(run.stderr.includes('✗ weather'), 'the unknown tool call is named on stderr');
    const second = world.server.chatRequests()[1].body as any;
    assert.equal(second.messages.find((m: any) => m.role === 'assistant').reasoning_content, tool.expect.reasoning);
  });

  it('without --verbose the reasoning stays out of stdout and stderr', async () => {
    const answer = recordedCase('deepseek', 'reasoning-content-stream');
    world.server.enqueue(...answer.steps);
    const run = await cli(['run', 'hello', '--base-url', world.server.baseUrl, '--model', answer.model], { cwd: world.ws, home: world.home });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), answer.expect.text);
    assert.ok(!run.stderr.includes('Hmm, the user'), run.stderr);
  });

  it('an answer cut at the output limit (finish_reason length) says so and exits 3', async () => {
    const cut = recordedCase('deepseek', 'finish-length-stream');
    world.server.enqueue(...cut.steps);
    const run = await cli(['run', 'invent a holiday', '--base-url', world.server.baseUrl, '--model', cut.model], { cwd: world.ws, home: world.home });
    assert.equal(run.code, 3, run.stderr);
    assert.ok(run.stdout.startsWith('## **Holiday Name:**'), 'what arrived is shown');
    assert.match(run.stderr, /cut off at the model's output limit/);
  });
});
