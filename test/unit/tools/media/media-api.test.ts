import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readImageHeader } from '../../../../extension/core/images/header';
import { mediaTools } from '../../../../extension/core/tools/media/index';
import { ToolRegistry } from '../../../../extension/core/tools/registry';
import { createHarness, type Harness } from '../../../fixtures/agent-harness';
import { makePng } from '../../../fixtures/images/make';
import { addMediaRoutes, SPEECH_BYTES, TRANSCRIPT } from '../../../fixtures/media-routes';
import { startScriptedServer, type ScriptedServer } from '../../../fixtures/scripted-server';
import { makeCtx, tempDir, writeTree } from '../helpers';

const system = (body: any): string => body.messages[0].content;

describe('media tools against the scripted endpoint', () => {
  let server: ScriptedServer;
  let root: string;
  const reg = new ToolRegistry(mediaTools);
  before(async () => {
    server = await startScriptedServer();
    addMediaRoutes(server);
  });
  after(() => server.close());
  beforeEach(() => {
    root = tempDir('sp-media-');
  });
  const ctxFor = (baseUrl = server.baseUrl) => makeCtx(root, { settings: { 'model.baseUrl': baseUrl }, extra: { apiKey: async () => 'sk-media-key' } });
  const lastTo = (s: ScriptedServer, p: string) => s.requests.filter((r) => r.path === p).at(-1)!;

  describe('in a session', () => {
    let h: Harness;
    afterEach(() => h?.close());

    it('the media group is deferred (5), and a generated image is saved and reaches the model as a picture', async () => {
      h = await createHarness({ server });
      h.server.enqueue({ toolCalls: [{ name: 'media_image_generate', arguments: JSON.stringify({ prompt: 'A red square, on white!', size: '16x12' }) }] }, { text: 'done' });
      await h.agent.runTurn(h.agent.newSession(), 'draw', new AbortController().signal);
      const [first, second] = h.bodies().slice(-2);
      assert.match(system(first), /^Deferred \(load with tool_search\): .*\bmedia \(5\)/m);
      const gen = lastTo(h.server, '/v1/images/generations').body;
      assert.deepEqual(gen, { model: 'gpt-image-1', prompt: 'A red square, on white!', n: 1, size: '16x12' });
      const saved = path.join(h.workspace, 'generated/a-red-square-on-white.png');
      const head = readImageHeader(fs.readFileSync(saved))!;
      assert.deepEqual([head.format, head.width, head.height], ['png', 16, 12]);
      const toolMsg = second.messages.find((m: any) => m.role === 'tool');
      assert.match(toolMsg.content, /^saved generated\/a-red-square-on-white\.png \(png, \d+ bytes, model gpt-image-1\)\nimage attached: generated\/a-red-square-on-white\.png/);
      assert.match(toolMsg.content, /loaded media_image_generate for this session/);
      const pic = second.messages.filter((m: any) => m.role === 'user' && Array.isArray(m.content)).at(-1);
      assert.ok(pic.content.some((p: any) => p.type === 'image_url' && p.image_url.url.startsWith('data:image/png;base64,')), 'the picture is in the request');
    });
  });

  it('media_image_edit sends the image and prompt as multipart with the key, and saves beside the input', async () => {
    writeTree(root, { 'art/logo.png': makePng({ width: 3, height: 3 }) });
    const ctx = ctxFor();
    const r = await reg.invoke('media_image_edit', JSON.stringify({ path: 'art/logo.png', prompt: 'make it blue' }), ctx);
    assert.equal(r.ok, true, r.content);
    assert.match(r.content, /^saved art\/logo-edited\.png \(edited from art\/logo\.png/);
    const req = lastTo(server, '/v1/images/edits');
    assert.equal(req.headers.authorization, 'Bearer sk-media-key');
    assert.match(String(req.headers['content-type']), /^multipart\/form-data/);
    assert.match(req.raw, /name="prompt"\r\n\r\nmake it blue/);
    assert.match(req.raw, /name="model"\r\n\r\ngpt-image-1/);
    assert.match(req.raw, /name="image"; filename="logo\.png"/);
    assert.equal(readImageHeader(fs.readFileSync(path.join(root, 'art/logo-edited.png')))!.width, 5);
    assert.equal(ctx.asked[0].permission, 'write');
  });

  it('media_speech writes the audio the endpoint returns, in the format of the path', async () => {
    const r = await reg.invoke('media_speech', JSON.stringify({ text: 'Hello there', voice: 'coral', path: 'audio/hello.mp3' }), ctxFor());
    assert.equal(r.ok, true, r.content);
    assert.deepEqual(lastTo(server, '/v1/audio/speech').body, { model: 'gpt-4o-mini-tts', voice: 'coral', input: 'Hello there', response_format: 'mp3' });
    assert.deepEqual(fs.readFileSync(path.join(root, 'audio/hello.mp3')), SPEECH_BYTES);
    const bad = await reg.invoke('media_speech', JSON.stringify({ text: 'x', path: 'audio/hello.txt' }), ctxFor());
    assert.equal(bad.error?.code, 'invalid_arguments');
    assert.match(bad.content, /must end in \.mp3, \.wav/);
    const other = makeCtx(root, { settings: { 'model.baseUrl': server.baseUrl, 'media.speechModel': 'tts-local' }, extra: { apiKey: async () => 'k' } });
    await reg.invoke('media_speech', JSON.stringify({ text: 'Hi', path: 'audio/hi.mp3' }), other);
    assert.equal(lastTo(server, '/v1/audio/speech').body.model, 'tts-local', 'media.speechModel picks the model');
  });

  it('media_transcribe uploads the file and returns the text', async () => {
    writeTree(root, { 'rec/note.wav': 'RIFF....WAVEfmt fake audio' });
    const r = await reg.invoke('media_transcribe', JSON.stringify({ path: 'rec/note.wav' }), ctxFor());
    assert.equal(r.ok, true, r.content);
    assert.equal(r.content, `transcript of rec/note.wav:\n${TRANSCRIPT}`);
    const req = lastTo(server, '/v1/audio/transcriptions');
    assert.match(req.raw, /name="model"\r\n\r\nwhisper-1/);
    assert.match(req.raw, /filename="note\.wav"[\s\S]*RIFF\.\.\.\.WAVEfmt fake audio/);
    const other = makeCtx(root, { settings: { 'model.baseUrl': server.baseUrl, 'media.transcribeModel': 'whisper-large-v3' }, extra: { apiKey: async () => 'k' } });
    await reg.invoke('media_transcribe', JSON.stringify({ path: 'rec/note.wav' }), other);
    assert.match(lastTo(server, '/v1/audio/transcriptions').raw, /name="model"\r\n\r\nwhisper-large-v3/, 'media.transcribeModel picks the model');
  });

  it('an endpoint without the API gets a clear unavailable error, and nothing is written', async () => {
    const bare = await startScriptedServer();
    try {
      writeTree(root, { 'a.png': makePng({ width: 2, height: 2 }), 'a.wav': 'RIFF' });
      const ctx = ctxFor(bare.baseUrl);
      const gen = await reg.invoke('media_image_generate', JSON.stringify({ prompt: 'cat' }), ctx);
      assert.equal(gen.error?.code, 'unavailable');
      assert.match(gen.content, /does not offer the images generation API \(POST \/images\/generations\) \(HTTP 404: scripted server: no route/);
      const edit = await reg.invoke('media_image_edit', JSON.stringify({ path: 'a.png', prompt: 'dog' }), ctx);
      assert.match(edit.content, /error \(unavailable\): .*images edit API/);
      const speech = await reg.invoke('media_speech', JSON.stringify({ text: 'x', path: 'x.wav' }), ctx);
      assert.match(speech.content, /error \(unavailable\): .*speech API \(POST \/audio\/speech\)/);
      const tr = await reg.invoke('media_transcribe', JSON.stringify({ path: 'a.wav' }), ctx);
      assert.match(tr.content, /error \(unavailable\): .*transcription API/);
      assert.deepEqual(fs.readdirSync(root).sort(), ['a.png', 'a.wav']);
    } finally {
      await bare.close();
    }
  });
});
