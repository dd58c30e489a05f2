import assert from 'node:assert/strict';
import { displayEndpoint, isContextLengthError, scrubSecrets } from '../../../extension/core/model/errors';
import { retryAfterMs, retryDelayMs, sleep } from '../../../extension/core/model/retry';
import { statedContextWindow } from '../../../extension/core/model/errors';
import { StreamAssembler } from '../../../extension/core/model/stream-assembler';

describe('model retry timing', () => {
  const policy = { baseDelayMs: 100, maxDelayMs: 1000 };

  it('reads Retry-After as seconds, fractions, HTTP dates and retry-after-ms', () => {
    assert.equal(retryAfterMs(new Headers({ 'retry-after': '3' })), 3000);
    assert.equal(retryAfterMs(new Headers({ 'retry-after': '0.25' })), 250);
    assert.equal(retryAfterMs(new Headers({ 'retry-after-ms': '40', 'retry-after': '9' })), 40);
    const now = Date.parse('2025-01-01T00:00:00Z');
    assert.equal(retryAfterMs({ 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' }, now), 5000);
    assert.equal(retryAfterMs({ 'retry-after': 'soon' }), null);
    assert.equal(retryAfterMs(undefined), null);
  });

  it('backs off exponentially with jitter, bounded, and prefers the server delay', () => {
    assert.equal(retryDelayMs(1, null, policy, () => 0), 100);
    assert.equal(retryDelayMs(3, null, policy, () => 0), 400);
    assert.equal(retryDelayMs(3, null, policy, () => 1), 300);
    assert.equal(retryDelayMs(10, null, policy, () => 0), 1000);
    assert.equal(retryDelayMs(1, 700, policy), 700);
    assert.equal(retryDelayMs(1, 90_000, policy), 1000);
  });

  it('sleep rejects as soon as the signal aborts', async () => {
    const ac = new AbortController();
    const p = sleep(60_000, ac.signal, () => new Error('stopped'));
    ac.abort();
    await assert.rejects(p, /stopped/);
  });
});

describe('model error helpers', () => {
  it('shows endpoints without credentials or query', () => {
    assert.equal(displayEndpoint('https://me:pw@api.example.com/v1/?api-key=zzz#x'), 'https://api.example.com/v1');
    assert.equal(displayEndpoint('http://localhost:11434/v1'), 'http://localhost:11434/v1');
  });

  it('scrubs the key and key-shaped strings from server text', () => {
    const key = 'my-custom-key-value-123';
    assert.equal(scrubSecrets(`bad key ${key}!`, key), 'bad key [redacted]!');
    assert.equal(scrubSecrets('Incorrect API key provided: sk-proj-abc********************wxyz.', 'other'), 'Incorrect API key provided: [redacted].');
    assert.equal(scrubSecrets('header was Bearer abc.def', 'x'), 'header was Bearer [redacted]');
  });

  it('detects context-length errors by code and wording, not other 400s or 429s', () => {
    assert.ok(isContextLengthError(400, 'context_length_exceeded', 'x'));
    assert.ok(isContextLengthError(400, null, "This model's maximum context length is 4096 tokens"));
    assert.ok(isContextLengthError(400, null, 'prompt is too long: 210000 tokens > 200000 maximum'));
    assert.ok(isContextLengthError(413, null, 'Input is too long for requested model.'));
    assert.ok(!isContextLengthError(400, null, 'Invalid value for temperature'));
    assert.ok(!isContextLengthError(429, null, 'Request too large for gpt-4o: maximum context length'));
  });
});

describe('context-window wordings (issue 28 N2, N14)', () => {
  it('N2: the wordings of Anthropic gateways, llama.cpp, older Ollama (500), vLLM V1, and any 400 naming token counts over a limit are context_length', () => {
    const cases: Array<[number, string]> = [
      [400, 'input length and `max_tokens` exceed context limit: 197000 + 8192 > 200000, decrease input length or `max_tokens` and try again'],
      [400, 'request (41000 tokens) exceeds the available context size (32768 tokens), try increasing it'],
      [500, 'input exceeds context length'],
      [400, 'The decoder prompt (length 41234) is longer than the maximum model length of 32768. Make sure that `max_model_len` is no smaller than the number of text tokens.'],
      [400, 'prompt has 41000 tokens, which is more than the 32768 tokens this deployment takes as input'],
    ];
    for (const [status, message] of cases) assert.ok(isContextLengthError(status, undefined, message), message);
    assert.ok(!isContextLengthError(400, undefined, 'Invalid value for temperature: 3 is greater than the maximum of 2'), 'no token counts: not an overflow');
    assert.ok(!isContextLengthError(500, undefined, 'prompt has 41000 tokens, the limit is 32768 tokens'), 'a 500 needs a known wording');
  });

  it('N14: the window an error states is read from each wording', () => {
    const cases: Array<[string, number]> = [
      ["This model's maximum context length is 10000 tokens. However, you requested 12000 tokens.", 10000],
      ['Trying to keep the first 5000 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens', 4096],
      ['prompt is too long: 210000 tokens > 200000 maximum', 200000],
      ['request (41000 tokens) exceeds the available context size (32768 tokens), try increasing it', 32768],
      ['The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).', 1048576],
      ['The decoder prompt (length 41234) is longer than the maximum model length of 32,768.', 32768],
      ['Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096. Given: 4000 `inputs` tokens and 200 `max_new_tokens`', 4096],
      ['Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length', 32768],
    ];
    for (const [message, n] of cases) assert.equal(statedContextWindow(message), n, message);
    assert.equal(statedContextWindow('input exceeds context length'), undefined);
  });
});

describe('stream assembler', () => {
  const chunk = (delta: object, finish: string | null = null) => ({ id: 'x', object: 'chat.completion.chunk' as const, created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] }) as any;

  it('assembles interleaved parallel calls by index and keeps repeated names whole', () => {
    const a = new StreamAssembler();
    a.add(chunk({ tool_calls: [{ index: 1, id: 'b', type: 'function', function: { name: 'grep', arguments: '{"pa' } }] }));
    a.add(chunk({ tool_calls: [{ index: 0, id: 'a', type: 'function', function: { name: 'read_file', arguments: '' } }] }));
    a.add(chunk({ tool_calls: [{ index: 1, function: { name: 'grep', arguments: 'ttern":"x"}' } }] }));
    a.add(chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path":"a"}' } }] }));
    a.add(chunk({}, 'tool_calls'));
    assert.deepEqual(a.result().toolCalls, [
      { id: 'a', name: 'read_file', arguments: '{"path":"a"}' },
      { id: 'b', name: 'grep', arguments: '{"pattern":"x"}' },
    ]);
  });

  it('handles calls without index, empty arguments, missing ids, and DeepSeek-style cache usage', () => {
    const a = new StreamAssembler();
    assert.equal(a.complete, false);
    a.add(chunk({ tool_calls: [{ id: 'one', function: { name: 'list_dir', arguments: '{"pa' } }] }));
    a.add(chunk({ tool_calls: [{ function: { arguments: 'th":"."}' } }] }));
    a.add({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12, prompt_cache_hit_tokens: 8 } } as any);
    const r = a.result();
    assert.equal(a.complete, true);
    assert.deepEqual(r.toolCalls, [{ id: 'one', name: 'list_dir', arguments: '{"path":"."}' }], 'an arguments-only delta continues the last call');
    const b = new StreamAssembler();
    b.add(chunk({ tool_calls: [{ function: { name: 'list_dir', arguments: '' } }] }));
    b.add(chunk({ tool_calls: [{ id: 'second', function: { name: 'glob' } }] }));
    const rb = b.result();
    assert.deepEqual(rb.toolCalls.map((c) => [c.name, c.arguments]), [['list_dir', '{}'], ['glob', '{}']]);
    assert.match(rb.toolCalls[0]!.id, /^call_/);
    assert.deepEqual(r.usage, { promptTokens: 10, completionTokens: 2, cachedTokens: 8 });
  });
});
