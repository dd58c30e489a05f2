import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { recordedCase } from '../../fixtures/provider-cases';
import { startReplayServer } from '../model/anthropic/replay-server';
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

  it('model.provider "anthropic": a tool-using turn on recorded Messages API streams, with ANTHROPIC_API_KEY, and a meter line per round', async () => {
    const replay = await startReplayServer();
    try {
      replay.enqueue({ recording: 'tool-use-no-args' }, { recording: 'text-haiku' });
      const settings = path.join(world.home, 'anthropic.json');
      fs.writeFileSync(settings, JSON.stringify({ 'model.provider': 'anthropic', 'model.baseUrl': replay.baseUrl, 'model.name': 'claude-haiku-4-5-20251001' }));
      const run = await cli(['run', 'what time is it?', '--settings', settings, '--json'], { cwd: world.ws, home: world.home, env: { ANTHROPIC_API_KEY: 'sk-ant-cli', OPENAI_API_KEY: '' } });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(replay.requests.length, 2);
      assert.match(String(replay.requests[0].headers.authorization ?? replay.requests[0].headers['x-api-key']), /sk-ant-cli/);
      const lines = run.stdout.trim().split('\n').map((l) => JSON.parse(l));
      assert.equal(lines.filter((l: any) => l.type === 'tool.result').length, 1);
      assert.equal(lines.at(-1).type, 'turn.end');
      assert.equal(lines.at(-1).reason, 'done');
      assert.ok(lines.some((l: any) => l.type === 'meter'), 'a meter line per round');
    } finally {
      await replay.close();
    }
  });

  /** Every recorded reply that is a tool call: `snowpea run` completes the turn on it. */
  const toolCases: Array<[string, string]> = [
    ['fireworks', 'stream-options-refused-then-answer'],
    ['gemini', 'tool-call-empty-id-thought-signature'],
    ['groq', 'tool-call-stream'],
    ['mistral', 'tool-call-stream'],
    ['ollama', 'reasoning-tool-call-json'],
    ['openai', 'parallel-tool-calls-stream'],
    ['xai', 'reasoning-tool-call-cached-stream'],
  ];
  for (const [provider, name] of toolCases) {
    it(`${provider} (${name}): snowpea run completes a tool-using turn on the recorded reply`, async () => {
      const rec = recordedCase(provider, name);
      world.server.enqueue(...rec.steps, { text: 'All done.' });
      const run = await cli(['run', 'use the tool', '--base-url', world.server.baseUrl, '--model', rec.model, '--json'], { cwd: world.ws, home: world.home });
      assert.equal(run.code, 0, run.stderr);
      const lines = run.stdout.trim().split('\n').map((l) => JSON.parse(l));
      assert.equal(lines.filter((l: any) => l.type === 'tool.result').length, rec.expect.toolCalls.length);
      assert.equal(lines.at(-1).reason, 'done');
      const last = world.server.chatRequests().at(-1)!.body as any;
      const sent = last.messages.find((m: any) => m.role === 'assistant' && m.tool_calls);
      assert.deepEqual(sent.tool_calls.map((c: any) => c.function.name), rec.expect.toolCalls.map((c: any) => c.name));
    });
  }
});
