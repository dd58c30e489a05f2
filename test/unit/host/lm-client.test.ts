import assert from 'node:assert/strict';
import { recordingLogger } from '../../fixtures/recording-logger';
import { ModelError, type WireMessage, type WireTool } from '../../../extension/core/model/types';
import { lmApiFrom, type LmApi, type LmChat } from '../../../extension/host/lm/lm-api';
import { createLmClient, requestText } from '../../../extension/host/lm/lm-client';
import { LM_IMAGE_UNSUPPORTED, toLmMessages } from '../../../extension/host/lm/lm-messages';

/**
 * The vscode.lm adapter against an in-process stand-in for the editor's API: the same class
 * shapes (parts, messages, errors, cancellation). The real API is exercised end to end in
 * test/e2e/vscode-lm.test.ts, where a provider extension relays to the scripted server.
 */
class TextPart {
  constructor(public value: string) {}
}
class ToolCallPart {
  constructor(
    public callId: string,
    public name: string,
    public input: object,
  ) {}
}
class ToolResultPart {
  constructor(
    public callId: string,
    public content: unknown[],
  ) {}
}
class DataPart {
  constructor(
    public data: Uint8Array,
    public mimeType: string,
  ) {}
  static image(data: Uint8Array, mime: string) {
    return new DataPart(data, mime);
  }
}
class LmError extends Error {
  constructor(
    message: string,
    public code: string,
  ) {
    super(message);
    this.name = 'LanguageModelError';
  }
}
class TokenSource {
  token = { isCancellationRequested: false };
  disposed = false;
  cancel() {
    this.token.isCancellationRequested = true;
  }
  dispose() {
    this.disposed = true;
  }
}

type Msg = { role: 'user' | 'assistant'; content: unknown[] };
const Message = {
  User: (content: string | unknown[]): Msg => ({ role: 'user', content: typeof content === 'string' ? [new TextPart(content)] : content }),
  Assistant: (content: string | unknown[]): Msg => ({ role: 'assistant', content: typeof content === 'string' ? [new TextPart(content)] : content }),
};

interface SentRequest {
  messages: Msg[];
  options: any;
  token: { isCancellationRequested: boolean };
}

function fakeModel(
  id: string,
  family: string,
  reply: (req: SentRequest) => AsyncIterable<unknown> | Error,
  /** The model's tokenizer: one token a character unless told otherwise. */
  count: (text: string) => number = (t) => t.length,
): LmChat & { sent: SentRequest[]; counted: string[] } {
  const sent: SentRequest[] = [];
  const counted: string[] = [];
  return {
    id,
    name: id,
    vendor: 'test',
    family,
    maxInputTokens: 100_000,
    sent,
    counted,
    async countTokens(text) {
      counted.push(text);
      return count(text);
    },
    async sendRequest(messages, options, token) {
      const req = { messages: messages as Msg[], options, token };
      sent.push(req);
      const r = reply(req);
      if (r instanceof Error) throw r;
      return { stream: r };
    },
  };
}

async function* parts(...items: unknown[]) {
  for (const i of items) yield i;
}

function api(models: LmChat[], { images = true } = {}): LmApi & { selects: number } {
  const a = {
    selects: 0,
    lm: {
      selectChatModels: async () => {
        a.selects++;
        return models;
      },
    },
    LanguageModelChatMessage: Message,
    LanguageModelTextPart: TextPart,
    LanguageModelToolCallPart: ToolCallPart,
    LanguageModelToolResultPart: ToolResultPart,
    ...(images ? { LanguageModelDataPart: DataPart } : {}),
    LanguageModelError: LmError,
    CancellationTokenSource: TokenSource,
  };
  return a as unknown as LmApi & { selects: number };
}

const tools: WireTool[] = [{ type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];
const never = new AbortController().signal;

describe('vscode.lm provider: requests in the editor API shape', () => {
  const history: WireMessage[] = [
    { role: 'system', content: 'You are Snowpea.' },
    { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0K' } }] },
    {
      role: 'assistant',
      content: 'Reading both.',
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } },
        { id: 'c2', type: 'function', function: { name: 'read_file', arguments: '{"path": oops' } },
      ],
    },
    { role: 'tool', tool_call_id: 'c1', content: 'A' },
    { role: 'tool', tool_call_id: 'c2', content: 'error: invalid_arguments' },
    { role: 'user', content: 'thanks' },
  ];

  it('sends the system prompt as the first user message, tool results of one round in one message, and images as data parts', () => {
    const out = toLmMessages(history, api([])) as Msg[];
    assert.deepEqual(
      out.map((m) => m.role),
      ['user', 'user', 'assistant', 'user', 'user'],
    );
    assert.deepEqual(out[0].content, [new TextPart('You are Snowpea.')]);
    const image = out[1].content[1] as DataPart;
    assert.ok(image instanceof DataPart);
    assert.equal(image.mimeType, 'image/png');
    assert.deepEqual([...image.data], [...Buffer.from('iVBORw0K', 'base64')], 'the decoded bytes of the data: URL');
    const [say, call1, call2] = out[2].content as [TextPart, ToolCallPart, ToolCallPart];
    assert.equal(say.value, 'Reading both.');
    assert.deepEqual(call1, new ToolCallPart('c1', 'read_file', { path: 'a.ts' }));
    assert.deepEqual(call2.input, { arguments: '{"path": oops' }, 'unparseable arguments are kept, not dropped');
    const results = out[3].content as ToolResultPart[];
    assert.deepEqual(
      results.map((r) => [r.callId, (r.content[0] as TextPart).value]),
      [
        ['c1', 'A'],
        ['c2', 'error: invalid_arguments'],
      ],
    );
    assert.deepEqual(out[4].content, [new TextPart('thanks')]);
  });

  it('puts a text marker where an image was when the editor has no image parts', () => {
    const out = toLmMessages(history, api([], { images: false })) as Msg[];
    assert.deepEqual(out[1].content, [new TextPart('look'), new TextPart(LM_IMAGE_UNSUPPORTED)]);
  });
});

describe('vscode.lm provider: the ModelClient', () => {
  it('streams text, returns tool calls with JSON arguments, and passes the tools once converted', async () => {
    const model = fakeModel('gpt-x', 'gpt', (req) =>
      req.messages.length === 2 ? parts(new TextPart('Let me '), new TextPart('look.'), new ToolCallPart('t1', 'read_file', { path: 'x' })) : parts(new TextPart('done')),
    );
    const client = createLmClient(api([model]), { model: 'gpt-x', log: recordingLogger() });
    const deltas: string[] = [];
    const first = await client.complete({ messages: [{ role: 'system', content: 's' }, { role: 'user', content: 'hi' }], tools }, { onText: (d) => deltas.push(d) }, never);
    assert.deepEqual(deltas, ['Let me ', 'look.']);
    assert.equal(first.text, 'Let me look.');
    assert.deepEqual(first.toolCalls, [{ id: 't1', name: 'read_file', arguments: '{"path":"x"}' }]);
    assert.equal(first.finishReason, 'tool_calls');
    // The API reports no usage: the model's tokenizer counts the request's text and the answer.
    const sentText = ['s', 'hi', JSON.stringify(tools)].join('\n');
    assert.deepEqual(model.counted, [sentText, 'Let me look.']);
    assert.deepEqual(first.usage, { promptTokens: sentText.length, completionTokens: 'Let me look.'.length, cachedTokens: 0, estimated: true });

    const second = await client.complete({ messages: [{ role: 'system', content: 's' }, { role: 'user', content: 'hi' }, { role: 'user', content: 'again' }], tools }, {}, never);
    assert.equal(second.text, 'done');
    assert.equal(second.finishReason, 'stop');
    assert.deepEqual(model.sent[0].options.tools, [{ name: 'read_file', description: 'Read a file', inputSchema: tools[0].function.parameters }]);
    assert.equal(model.sent[0].options.toolMode, 1, 'Auto');
    assert.equal(model.sent[1].options.tools, model.sent[0].options.tools, 'the same tools array becomes the same converted array');
    assert.equal(client.endpoint, 'vscode.lm');
  });

  it('counts text, tool calls and tool results but not images; a failing count leaves no usage', async () => {
    const image = { type: 'image_url' as const, image_url: { url: `data:image/png;base64,${'A'.repeat(10_000)}` } };
    const text = requestText({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'see this' }, image] },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'grep', arguments: '{"pattern":"x"}' } }] },
        { role: 'tool', tool_call_id: 'c', content: 'a.ts:1:x' },
      ],
      tools: [],
    });
    assert.equal(text, ['see this', 'grep', '{"pattern":"x"}', 'a.ts:1:x'].join('\n'));

    const broken = fakeModel('gpt-x', 'gpt', () => parts(new TextPart('ok')), () => {
      throw new Error('tokenizer unavailable');
    });
    const log = recordingLogger();
    const r = await createLmClient(api([broken]), { model: 'gpt-x', log }).complete({ messages: [{ role: 'user', content: 'hi' }], tools: [] }, {}, never);
    assert.equal(r.text, 'ok');
    assert.equal(r.usage, null);
  });

  it('picks the model by id, then family; with no match uses the first and says so in the log', async () => {
    const a = fakeModel('claude-x', 'claude', () => parts(new TextPart('a')));
    const b = fakeModel('gpt-4.1', 'gpt-4.1-family', () => parts(new TextPart('b')));
    const ask = async (name: string, log = recordingLogger()) => (await createLmClient(api([a, b]), { model: name, log }).complete({ messages: [], tools: [] }, {}, never)).text;
    assert.equal(await ask('gpt-4.1'), 'b');
    assert.equal(await ask('gpt-4.1-family'), 'b');
    const log = recordingLogger();
    const client = createLmClient(api([a, b]), { model: 'gpt-4.1-mini', log });
    assert.equal((await client.complete({ messages: [], tools: [] }, {}, never)).text, 'a');
    assert.equal(client.model, 'claude-x', 'the client names the model it really uses');
    assert.match(log.lines.join('\n'), /model "gpt-4\.1-mini" is not among this editor's language models \(test\/claude-x, test\/gpt-4\.1\); using test\/claude-x/);
  });

  it('with no language models fails clearly, and looks again on the next request', async () => {
    const models: LmChat[] = [];
    const a = api(models);
    const client = createLmClient(a, { model: 'm', log: recordingLogger() });
    await assert.rejects(client.complete({ messages: [], tools: [] }, {}, never), (e: unknown) => e instanceof ModelError && e.kind === 'not_found' && /No language models are available.*Copilot/.test(e.message));
    models.push(fakeModel('m', 'm', () => parts(new TextPart('now here'))));
    assert.equal((await client.complete({ messages: [], tools: [] }, {}, never)).text, 'now here');
    assert.equal(a.selects, 2);
  });

  it('maps the editor\'s errors to ModelErrors the chat can explain', async () => {
    const cases: Array<[string, ModelError['kind'], RegExp]> = [
      ['NoPermissions', 'auth', /allow Snowpea to use it/],
      ['Blocked', 'rate_limited', /blocked for now/],
      ['NotFound', 'not_found', /Select Model/],
    ];
    for (const [code, kind, text] of cases) {
      const client = createLmClient(api([fakeModel('m', 'm', () => new LmError(`denied (${code})`, code))]), { model: 'm', log: recordingLogger() });
      await assert.rejects(client.complete({ messages: [], tools: [] }, {}, never), (e: unknown) => e instanceof ModelError && e.kind === kind && text.test(e.message) && e.message.includes(`denied (${code})`));
    }
    const other = createLmClient(api([fakeModel('m', 'm', () => new Error('socket hang up'))]), { model: 'm', log: recordingLogger() });
    await assert.rejects(other.complete({ messages: [], tools: [] }, {}, never), (e: unknown) => e instanceof ModelError && e.kind === 'server' && /"m" failed: socket hang up/.test(e.message));
  });

  it('a stop cancels the editor request and ends the stream as cancelled', async () => {
    const ctrl = new AbortController();
    let token: { isCancellationRequested: boolean } | undefined;
    const model = fakeModel('m', 'm', (req) => {
      token = req.token;
      return (async function* () {
        yield new TextPart('partial');
        ctrl.abort();
        yield new TextPart(' never delivered');
      })();
    });
    const deltas: string[] = [];
    const client = createLmClient(api([model]), { model: 'm', log: recordingLogger() });
    await assert.rejects(client.complete({ messages: [], tools: [] }, { onText: (d) => deltas.push(d) }, ctrl.signal), (e: unknown) => e instanceof ModelError && e.kind === 'cancelled');
    assert.deepEqual(deltas, ['partial']);
    assert.equal(token?.isCancellationRequested, true, 'the CancellationToken handed to the editor is cancelled');
  });

  it('an error thrown by the caller\'s text handler reaches the caller untouched', async () => {
    const client = createLmClient(api([fakeModel('m', 'm', () => parts(new TextPart('x')))]), { model: 'm', log: recordingLogger() });
    const mine = new Error('handler broke');
    await assert.rejects(
      client.complete({ messages: [], tools: [] }, { onText: () => { throw mine; } }, never),
      (e: unknown) => e === mine,
    );
  });
});

describe('vscode.lm provider: what the running editor has', () => {
  it('names what is missing: no lm namespace, or no tool-calling parts (before VS Code 1.95)', () => {
    assert.deepEqual(lmApiFrom({}), { missing: 'this editor has no language-model API (vscode.lm)' });
    const old = lmApiFrom({ lm: { selectChatModels() {} }, LanguageModelChatMessage: Message, LanguageModelTextPart: TextPart });
    assert.match((old as { missing: string }).missing, /no tool calling \(it needs VS Code 1\.95 or later\)/);
    const full = { lm: { selectChatModels() {} }, LanguageModelToolCallPart: ToolCallPart, LanguageModelToolResultPart: ToolResultPart };
    assert.equal(lmApiFrom(full), full);
  });
});
