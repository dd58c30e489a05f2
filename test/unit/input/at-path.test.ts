import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { expandAtPaths, findMentions } from '../../../extension/core/input/at-path';
import { createHarness, type Harness } from '../../fixtures/agent-harness';
import { makePng } from '../../fixtures/images/make';

const signal = () => new AbortController().signal;

describe('images: @path in a prompt', () => {
  let h: Harness;
  const png = makePng({ width: 300, height: 200 });
  afterEach(async () => h && (await h.close()));

  function put(rel: string, bytes: Buffer | string): void {
    fs.mkdirSync(path.dirname(path.join(h.workspace, rel)), { recursive: true });
    fs.writeFileSync(path.join(h.workspace, rel), bytes);
  }
  const opts = () => ({ readMaxLines: h.settings['tools.readMaxLines'] });

  it('finds mentions at word starts and in quotes, not in e-mail addresses or code', () => {
    const found = findMentions('see @a.png, @"my shot.png" (@src/x.ts) mail bob@example.com `@not/this` and\n```\n@nor/this\n```\n@\'q q.txt\'');
    assert.deepEqual(
      found.map((m) => [m.raw, m.path, m.quoted]),
      [
        ['@a.png,', 'a.png,', false],
        ['@"my shot.png"', 'my shot.png', true],
        ['@src/x.ts)', 'src/x.ts)', false],
        ["@'q q.txt'", 'q q.txt', true],
      ],
    );
  });

  it('attaches an image and inlines a text file; the request carries both after the prompt', async () => {
    h = await createHarness();
    put('shots/login page.png', png);
    put('src/app.ts', 'export const a = 1;\nexport const b = 2;\n');
    const prompt = 'Why does @"shots/login page.png" differ from what @src/app.ts renders?';
    const { parts } = await expandAtPaths(prompt, h.workspace, h.agent.attachments, opts());
    h.server.enqueue({ text: 'Because.' });
    const s = h.agent.newSession();
    await h.agent.runTurn(s, parts, signal());
    const user = h.bodies()[0].messages[1];
    assert.equal(user.role, 'user');
    assert.deepEqual(user.content, [
      { type: 'text', text: prompt },
      { type: 'text', text: '[image @shots/login page.png]' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } },
      { type: 'text', text: '<file path="src/app.ts" lines="1-2 of 2">\n    1\texport const a = 1;\n    2\texport const b = 2;\n</file>' },
    ]);
    const stored = h.store.getMessages(s.id)[0] as any;
    assert.equal(stored.content[2].type, 'image');
    assert.equal(stored.content[2].name, 'shots/login page.png');
  });

  it('a model without vision gets the text marker instead of the picture', async () => {
    h = await createHarness({ settings: { 'model.supportsImages': false } });
    put('logo.png', png);
    const { parts } = await expandAtPaths('what is @logo.png?', h.workspace, h.agent.attachments, opts());
    h.server.enqueue({ text: 'No idea.' });
    await h.agent.runTurn(h.agent.newSession(), parts, signal());
    assert.equal(h.bodies()[0].messages[1].content, 'what is @logo.png?\n[image @logo.png]\n[image: logo.png, 300x200, not sent: model has no vision]');
  });

  it('leaves missing paths as typed with a note, skips non-path words, and says why others were not attached', async () => {
    h = await createHarness({ settings: { 'images.maxFileBytes': 100 } });
    put('src/.keep', '');
    put('bin/blob.dat', Buffer.from([0, 1, 2, 3, 0, 0, 7]));
    put('big.png', png);
    const { parts, mentions } = await expandAtPaths('add @Override; fix @src/nope.ts and @src, @bin/blob.dat, @big.png', h.workspace, h.agent.attachments, opts());
    assert.deepEqual(
      mentions.map((m) => [m.raw, m.kind]),
      [
        ['@src/nope.ts', 'missing'],
        ['@src', 'folder'],
        ['@bin/blob.dat', 'refused'],
        ['@big.png', 'refused'],
      ],
    );
    const texts = parts.map((p) => (p.type === 'text' ? p.text : '<image>'));
    assert.equal(texts[0], 'add @Override; fix @src/nope.ts and @src, @bin/blob.dat, @big.png', 'the prompt stays as typed');
    assert.equal(texts[1], '[@src/nope.ts: no such file in the workspace; left as typed]');
    assert.match(texts[2], /^\[@src: is a folder; not attached/);
    assert.equal(texts[3], '[@bin/blob.dat: not attached: binary file (7 bytes); only text files and images can be attached]');
    assert.match(texts[4], /^\[@big\.png: not attached: big\.png is [\d.]+ KB \(\d+ bytes\), over the 0\.1 KB \(100 bytes\) limit for images/);
  });

  it('caps an inlined file at tools.readMaxLines, and attaches a file mentioned twice once', async () => {
    h = await createHarness({ settings: { 'tools.readMaxLines': 10 } });
    put('log.txt', Array.from({ length: 25 }, (_, i) => `line ${i + 1}`).join('\n'));
    const { parts } = await expandAtPaths('read @log.txt then @./log.txt', h.workspace, h.agent.attachments, opts());
    assert.equal(parts.length, 2);
    const block = (parts[1] as { text: string }).text.split('\n');
    assert.equal(block[0], '<file path="log.txt" lines="1-10 of 25">');
    assert.equal(block[10], '   10\tline 10');
    assert.equal(block[11], '[showing lines 1-10 of 25; call read_file with offset=11 to read more]');
    assert.equal(block.at(-1), '</file>');
  });

  it('a prompt without mentions is one text part', async () => {
    h = await createHarness();
    assert.deepEqual((await expandAtPaths('plain prompt, mail me@x.org', h.workspace, h.agent.attachments, opts())).parts, [{ type: 'text', text: 'plain prompt, mail me@x.org' }]);
  });
});
