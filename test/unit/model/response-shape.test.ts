import assert from 'node:assert/strict';
import { createOpenAIClient, type ModelLogLevel, type OpenAIClientOptions } from '../../../extension/core/model/openai-client';
import { ModelError, type ModelRequest } from '../../../extension/core/model/types';
import { startScriptedServer, type ScriptedServer } from '../../fixtures/scripted-server';

const req: ModelRequest = { messages: [{ role: 'user', content: 'please answer' }], tools: [] };

/** Everything written through console.* and process.stderr while fn runs. */
async function captureStderr<T>(fn: () => Promise<T>): Promise<{ value: T | undefined; error: unknown; text: string }> {
  const saved = { error: console.error, warn: console.warn, log: console.log, info: console.info, debug: console.debug, write: process.stderr.write };
  let text = '';
  const grab = (...a: unknown[]) => void (text += a.map(String).join(' ') + '\n');
  Object.assign(console, { error: grab, warn: grab, log: grab, info: grab, debug: grab });
  process.stderr.write = ((chunk: unknown) => ((text += String(chunk)), true)) as typeof process.stderr.write;
  try {
    return { value: await fn(), error: undefined, text };
  } catch (e) {
    return { value: undefined, error: e, text };
  } finally {
    Object.assign(console, { error: saved.error, warn: saved.warn, log: saved.log, info: saved.info, debug: saved.debug });
    process.stderr.write = saved.write;
  }
}

describe('model client: what a 200 response really holds, and what errors quote', () => {
  let srv: ScriptedServer;
  let logs: Array<[ModelLogLevel, string]>;
  let retries: number;
  const make = (o: Partial<OpenAIClientOptions> = {}) =>
    createOpenAIClient({ baseUrl: srv.baseUrl, apiKey: 'k', model: 'gpt-4o', requestTimeoutS: 5, maxRetries: 3, retryBaseDelayMs: 1, log: (l, m) => logs.push([l, m]), ...o });
  const run = (o: Partial<OpenAIClientOptions> = {}, onText?: (t: string) => void) =>
    make(o).complete(req, { onText, onRetry: () => void retries++ }, new AbortController().signal);
  const failure = async (p: Promise<unknown>): Promise<ModelError> => {
    const e = await p.then(() => assert.fail('expected a ModelError'), (x: unknown) => x);
    assert.ok(e instanceof ModelError, String(e));
    return e;
  };

  beforeEach(async () => {
    srv = await startScriptedServer();
    logs = [];
    retries = 0;
  });
  afterEach(() => srv.close());

  it('P11: a 200 text/html page is named as such, points at model.baseUrl, and is not retried', async () => {
    const page = '<!doctype html><html><head><title>Welcome to nginx!</title><style>body{margin:0}</style></head><body><h1>Welcome</h1></body></html>';
    srv.enqueue(...Array.from({ length: 4 }, () => ({ fault: { body: page, contentType: 'text/html; charset=utf-8' } })));
    const err = await failure(run());
    assert.match(err.message, /returned an HTML page \(text\/html; charset=utf-8\), not an event stream: check model\.baseUrl \(it usually ends in \/v1\)/);
    assert.match(err.message, /It began: "Welcome to nginx! Welcome"/);
    assert.doesNotMatch(err.message, /<|margin|no finish reason/);
    assert.equal(srv.chatRequests().length, 1);
    assert.equal(retries, 0);
  });

  it('P11: a non-streamed JSON completion (stream ignored) is used as the answer, tool calls included', async () => {
    const completion = {
      id: 'x',
      object: 'chat.completion',
      choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: 'Answer from JSON.', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } }] } }],
      usage: { prompt_tokens: 7, completion_tokens: 3 },
    };
    srv.enqueue({ fault: { body: JSON.stringify(completion), contentType: 'application/json' } });
    const shown: string[] = [];
    const res = await run({}, (t) => shown.push(t));
    assert.equal(res.text, 'Answer from JSON.');
    assert.deepEqual(shown, ['Answer from JSON.']);
    assert.deepEqual(res.toolCalls, [{ id: 'c1', name: 'read_file', arguments: '{"path":"a.txt"}' }]);
    assert.equal(res.usage?.promptTokens, 7);
    assert.equal(srv.chatRequests().length, 1);
    assert.ok(logs.some(([, m]) => /ignored stream: true/.test(m)));
  });

  it('P11: a 502 with a 20 KB multi-line HTML page gives one short plain line, not the page', async () => {
    const filler = Array.from({ length: 600 }, (_, i) => `<p class="x">line ${i} of the proxy page</p>`).join('\n');
    const page = `<html><head><title>502 Bad Gateway</title><script>var a = "<b>";</script></head>\n<body>\n<h1>Bad   Gateway</h1>\n${filler}\n</body></html>`;
    assert.ok(page.length > 20_000);
    srv.enqueue(...Array.from({ length: 2 }, () => ({ fault: { body: page, contentType: 'text/html', status: 502 } })));
    const err = await failure(run({ maxRetries: 1 }));
    assert.equal(err.status, 502);
    assert.match(err.message, /Server error \(HTTP 502\).*the server said: 502 Bad Gateway Bad Gateway line 0/);
    assert.doesNotMatch(err.message, /[<>\n]|var a/);
    assert.ok(err.message.length < 400, `message is ${err.message.length} chars`);
    assert.ok(logs.every(([, m]) => m.length < 600), 'no log line carries the page');
  });

  it('P15: a malformed chunk prints nothing to stderr (the SDK logs to our debug log), and is retried before any text', async () => {
    srv.enqueue({ text: 'x', fault: { malformedChunkAt: 1 } }, { text: 'recovered' });
    const out = await captureStderr(() => run());
    assert.equal(out.error, undefined);
    assert.equal(out.value?.text, 'recovered');
    assert.doesNotMatch(out.text, /Could not parse message into JSON|From chunk/);
    assert.equal(out.text, '');
    assert.ok(logs.some(([l, m]) => l === 'debug' && /openai sdk: Could not parse message into JSON/.test(m)));
  });

  it('P15: a malformed chunk after text: one clear error, still nothing on stderr', async () => {
    srv.enqueue({ text: 'some text before the break', fault: { malformedChunkAt: 3 } });
    const out = await captureStderr(() => run({}, () => {}));
    assert.ok(out.error instanceof ModelError);
    assert.match((out.error as ModelError).message, /an unreadable chunk/);
    assert.equal(out.text, '');
  });

  it('P24: a stream of only empty choices plus usage is an error, not a silent empty answer', async () => {
    srv.enqueue({ fault: { emptyChoices: 'usage' } });
    const err = await failure(run());
    assert.match(err.message, /sent no answer: its stream carried no choices and usage/);
    assert.equal(srv.chatRequests().length, 1);
  });

  it('P24: a cut after shown text says the partial answer was not saved', async () => {
    srv.enqueue({ text: 'a partial answer that is long enough', fault: { cutAfterChunks: 3 } });
    const err = await failure(run({}, () => {}));
    assert.equal(err.kind, 'stream_cut');
    assert.match(err.message, /after part of the answer had streamed \(that partial answer was not saved\)/);
  });

  it('P17: an ftp:// base URL is refused at once with a plain reason, never retried as a network error', async () => {
    const err = await failure(run({ baseUrl: 'ftp://127.0.0.1/v1' }));
    assert.equal(err.kind, 'bad_request');
    assert.match(err.message, /model\.baseUrl ftp:\/\/127\.0\.0\.1\/v1 uses the ftp: scheme; .*http:\/\/ or https:\/\//);
    assert.equal(retries, 0);
    assert.equal(srv.requests.length, 0);
  });
});
