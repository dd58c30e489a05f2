/**
 * Conformance against RECORDED provider responses: every case under test/fixtures/providers/
 * (except anthropic/, which has its own client) is a list of HTTP responses a real provider or
 * server sent, taken from public recordings (VCR cassettes, SDK fixtures, documentation, bodies
 * users pasted into issues). The replay server serves them byte for byte to the real OpenAI-
 * compatible client, and the test checks what the user would see: the answer text, the reasoning
 * beside it, tool calls, usage, finish reason, or the error (its kind, status, and the provider's
 * own words). See test/fixtures/providers/README.md for the format and the sources.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createOpenAIClient, type OpenAIClientOptions } from '../../../extension/core/model/openai-client';
import { ModelError, type ModelRequest, type ModelResponse, type WireTool } from '../../../extension/core/model/types';
import { startProviderReplay, type ProviderReplay, type RecordedResponse } from '../../fixtures/provider-replay';

const ROOT = path.join(__dirname, '..', '..', 'fixtures', 'providers');
/** Built and checked by another suite (its own client). */
const EXCLUDED_DIRS = new Set(['anthropic']);

interface CaseResponse {
  status: number;
  headers: Record<string, string>;
  body?: string;
  /** A sibling file holding the body, for long recordings. */
  bodyFile?: string;
}

interface CaseExpect {
  text?: string;
  reasoning?: string | null;
  reasoningSource?: string;
  toolCalls?: Array<{ name: string; arguments: string; extraKeys?: string[] }>;
  finishReason?: string | null;
  usage?: { promptTokens?: number; completionTokens?: number; cachedTokens?: number; reasoningTokens?: number };
  error?: { kind?: string; status?: number; includes?: string[] };
  requests?: number;
  laterRequestOmits?: string[];
}

interface ProviderCase {
  provider: string;
  description: string;
  source: { url?: string; repository?: string; path?: string; commit?: string; licence?: string };
  verbatim: boolean;
  adapted?: string;
  model: string;
  responses: CaseResponse[];
  client?: { cacheHints?: string; maxOutputTokens?: number | null };
  expect: CaseExpect;
}

interface LoadedCase {
  file: string;
  dir: string;
  data: ProviderCase;
}

function loadCases(): LoadedCase[] {
  const out: LoadedCase[] = [];
  if (!fs.existsSync(ROOT)) return out;
  for (const dir of fs.readdirSync(ROOT).sort()) {
    const full = path.join(ROOT, dir);
    if (!fs.statSync(full).isDirectory() || EXCLUDED_DIRS.has(dir)) continue;
    for (const name of fs.readdirSync(full).sort()) {
      if (!name.endsWith('.json')) continue;
      const file = path.join(full, name);
      out.push({ file, dir, data: JSON.parse(fs.readFileSync(file, 'utf8')) as ProviderCase });
    }
  }
  return out;
}

function responsesOf(c: LoadedCase): RecordedResponse[] {
  return c.data.responses.map((r) => ({
    status: r.status,
    headers: r.headers,
    body: r.bodyFile !== undefined ? fs.readFileSync(path.join(path.dirname(c.file), r.bodyFile), 'utf8') : (r.body ?? ''),
  }));
}

const tools: WireTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Current weather in a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
];

const request: ModelRequest = {
  messages: [
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: 'Hello' },
  ],
  tools,
  cacheKey: 'session-1',
};

/** `<think>` blocks leave whitespace around the answer that a client may or may not keep. */
const loose = (s: string) => s.trim();

async function runCase(c: LoadedCase, replay: ProviderReplay): Promise<void> {
  const { data } = c;
  const exp = data.expect;
  const opts = {
    baseUrl: `${replay.baseUrl}/v1`,
    apiKey: 'sk-test',
    model: data.model,
    requestTimeoutS: 5,
    maxRetries: 0,
    retryBaseDelayMs: 1,
    maxOutputTokens: data.client?.maxOutputTokens ?? undefined,
    // 'on' is the value the client takes once cache hints can be forced on for any endpoint.
    cacheHints: (data.client?.cacheHints ?? 'auto') as OpenAIClientOptions['cacheHints'],
  } satisfies OpenAIClientOptions;
  const client = createOpenAIClient(opts);
  const texts: string[] = [];
  const reasonings: string[] = [];
  let res: ModelResponse | undefined;
  let err: unknown;
  try {
    res = await client.complete(request, { onText: (d) => texts.push(d), onReasoning: (d) => reasonings.push(d) }, new AbortController().signal);
  } catch (e) {
    err = e;
  }

  const sent = replay.requests;
  const thinkTag = exp.reasoningSource === 'think_tag';

  if (exp.error) {
    assert.ok(err !== undefined, `expected an error, got an answer: ${JSON.stringify(res)?.slice(0, 300)}`);
    assert.ok(err instanceof ModelError, `expected a ModelError, got ${String(err)}`);
    const e = err as ModelError;
    if (exp.error.kind !== undefined) assert.equal(e.kind, exp.error.kind, `kind (message: ${e.message})`);
    if (exp.error.status !== undefined) {
      assert.equal(e.status, exp.error.status, `status (message: ${e.message})`);
      assert.ok(e.message.includes(String(exp.error.status)), `the message names the status ${exp.error.status}: ${e.message}`);
    }
    for (const part of exp.error.includes ?? []) assert.ok(e.message.includes(part), `the message includes the provider's words ${JSON.stringify(part)}: ${e.message}`);
    assert.ok(e.message.includes(data.model), `the message names the model: ${e.message}`);
    assert.ok(e.message.includes(`${replay.baseUrl}/v1`), `the message names the endpoint: ${e.message}`);
    assert.ok(!e.message.includes('sk-test'), 'the message never contains the key');
  } else {
    if (err !== undefined) throw err;
    assert.ok(res);
    if (exp.text !== undefined) {
      if (thinkTag) assert.equal(loose(res.text), loose(exp.text), 'answer text');
      else assert.equal(res.text, exp.text, 'answer text');
      // What streamed to onText is the answer, and only the answer.
      if (thinkTag) assert.equal(loose(texts.join('')), loose(res.text), 'streamed text');
      else assert.equal(texts.join(''), res.text, 'streamed text');
    }
    if (exp.reasoning !== undefined) {
      if (exp.reasoning === null) {
        assert.ok(!res.reasoning || res.reasoning.text === '', `no reasoning expected, got ${JSON.stringify(res.reasoning)?.slice(0, 200)}`);
      } else {
        assert.ok(res.reasoning, 'reasoning expected beside the answer');
        assert.equal(loose(res.reasoning.text), loose(exp.reasoning), 'reasoning text');
        assert.equal(loose(reasonings.join('')), loose(exp.reasoning), 'streamed reasoning');
      }
    }
    if (exp.reasoningSource !== undefined) assert.equal(res.reasoning?.source, exp.reasoningSource, 'reasoning source');
    if (exp.toolCalls !== undefined) {
      assert.deepEqual(
        res.toolCalls.map((t) => ({ name: t.name, arguments: t.arguments })),
        exp.toolCalls.map((t) => ({ name: t.name, arguments: t.arguments })),
        'tool calls',
      );
      exp.toolCalls.forEach((t, i) => {
        for (const k of t.extraKeys ?? []) assert.ok(res!.toolCalls[i]!.extra && k in res!.toolCalls[i]!.extra!, `tool call ${i} keeps ${k} to echo back`);
        assert.ok(res!.toolCalls[i]!.id, `tool call ${i} has an id`);
      });
    }
    if (exp.finishReason !== undefined) assert.equal(res.finishReason, exp.finishReason, 'finish reason');
    if (exp.usage !== undefined) {
      assert.ok(res.usage, 'usage reported');
      for (const [k, v] of Object.entries(exp.usage)) assert.equal((res.usage as unknown as Record<string, unknown>)[k], v, `usage.${k}`);
    }
  }

  // The recording is consumed exactly: no request more, none less (a retry the case expects says so).
  assert.equal(sent.length, exp.requests ?? data.responses.length, `requests sent (${sent.length})`);
  for (const key of exp.laterRequestOmits ?? []) {
    assert.ok(sent.length >= 2, 'a later request was sent');
    assert.ok(key in (sent[0]!.body ?? {}), `the first request carried ${key}`);
    assert.ok(!(key in (sent[sent.length - 1]!.body ?? {})), `the later request left out ${key}`);
  }
}

const cases = loadCases();

describe('Recorded provider responses (conformance)', function () {
  this.timeout(20_000);

  describe('case files', () => {
    it('every case names its source, licence and whether it is verbatim', () => {
      assert.ok(cases.length > 0, 'cases found');
      for (const c of cases) {
        const where = path.relative(ROOT, c.file);
        const d = c.data;
        assert.equal(d.provider, c.dir, `${where}: provider matches its folder`);
        assert.ok(typeof d.description === 'string' && d.description.length > 10, `${where}: description`);
        assert.ok(typeof d.model === 'string' && d.model, `${where}: model`);
        assert.ok(d.source && (d.source.url || (d.source.repository && d.source.path)), `${where}: source url, or repository and path`);
        assert.ok(d.source.licence, `${where}: source licence`);
        assert.equal(typeof d.verbatim, 'boolean', `${where}: verbatim`);
        if (!d.verbatim) assert.ok(typeof d.adapted === 'string' && d.adapted.length > 10, `${where}: a non-verbatim case says what was adapted`);
        assert.ok(Array.isArray(d.responses) && d.responses.length > 0, `${where}: responses`);
        for (const r of d.responses) {
          assert.ok(Number.isInteger(r.status), `${where}: status`);
          assert.ok(r.headers && typeof r.headers === 'object', `${where}: headers`);
          assert.ok(typeof r.body === 'string' || (typeof r.bodyFile === 'string' && fs.existsSync(path.join(path.dirname(c.file), r.bodyFile))), `${where}: body or an existing bodyFile`);
        }
        assert.ok(d.expect && typeof d.expect === 'object' && Object.keys(d.expect).length > 0, `${where}: expect`);
      }
    });

    it('covers at least 10 distinct providers and servers', () => {
      const providers = new Set(cases.map((c) => c.data.provider));
      assert.ok(providers.size >= 10, `${providers.size} providers: ${[...providers].join(', ')}`);
    });
  });

  for (const c of cases) {
    it(`${c.data.provider}: ${c.data.description}`, async () => {
      const replay = await startProviderReplay(responsesOf(c));
      try {
        await runCase(c, replay);
      } finally {
        await replay.close();
      }
    });
  }
});
