import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { composeUserPrompt } from '../../../extension/core/input/compose';
import { createHarness, type Harness } from '../../fixtures/agent-harness';
import { makePng } from '../../fixtures/images/make';

describe('images: composing a user message (paste, --attach, @path)', () => {
  let h: Harness;
  afterEach(async () => h && (await h.close()));
  const opts = () => ({ workspaceRoot: h.workspace, store: h.agent.attachments, readMaxLines: h.settings['tools.readMaxLines'] });

  it('pasted images attach; a broken one drops out with a note, and the rest of the message stays', async () => {
    h = await createHarness();
    const good = makePng({ width: 64, height: 32 });
    const cut = makePng({ width: 64, height: 32 }).subarray(0, 60);
    const composed = await composeUserPrompt(
      {
        text: 'what is wrong here?',
        images: [
          { name: 'paste-1.png', mime: 'image/png', dataBase64: good.toString('base64') },
          { name: 'paste-2.png', mime: 'image/png', dataBase64: cut.toString('base64') },
        ],
      },
      opts(),
    );
    assert.equal(composed.problems.length, 1);
    assert.match(composed.problems[0], /^\[image paste-2\.png not attached: paste-2\.png is a corrupt or truncated PNG image: /);
    assert.equal(composed.images.length, 1);
    h.server.enqueue({ text: 'ok' });
    await h.agent.runTurn(h.agent.newSession(), composed.content, new AbortController().signal);
    const content = h.bodies()[0].messages[1].content;
    assert.deepEqual(content.map((p: any) => p.type), ['text', 'image_url', 'text']);
    assert.equal(content[0].text, 'what is wrong here?');
    assert.equal(content[1].image_url.url, `data:image/png;base64,${good.toString('base64')}`);
    assert.equal(content[2].text, composed.problems[0]);
  });

  it('--attach paths: images and text files attach, a missing one is reported', async () => {
    h = await createHarness({ files: { 'notes.md': '# Notes\n' } });
    fs.mkdirSync(path.join(h.workspace, 'shots'));
    fs.writeFileSync(path.join(h.workspace, 'shots', 'a.png'), makePng({ width: 10, height: 10 }));
    const composed = await composeUserPrompt({ text: 'see attached', attach: ['shots/a.png', 'gone.png', path.join(h.workspace, 'notes.md')] }, opts());
    assert.deepEqual(composed.mentions.map((m) => m.kind), ['image', 'missing', 'file']);
    assert.deepEqual(composed.problems, ['[gone.png: no such file; not attached]']);
    const parts = composed.content as any[];
    assert.equal(parts[2].type, 'image');
    assert.equal(parts[2].name, 'shots/a.png');
    assert.equal(parts.at(-1).text, '<file path="notes.md" lines="1-1 of 1">\n    1\t# Notes\n</file>');
  });

  it('a plain prompt stays a plain string', async () => {
    h = await createHarness();
    const composed = await composeUserPrompt({ text: 'hello' }, opts());
    assert.deepEqual(composed, { content: 'hello', problems: [], mentions: [], images: [] });
  });

  describe('the session title', () => {
    const cut = () => makePng({ width: 64, height: 32 }).subarray(0, 60).toString('base64');

    it('comes from the user\'s own text, not the notes about refused attachments', async () => {
      h = await createHarness();
      h.server.enqueue({ text: 'ok' });
      const s = h.agent.newSession();
      const heard: string[] = [];
      const sent = await h.agent.send(
        s,
        { text: '  why is\nthe build red?', images: [{ name: 'paste-1.png', mime: 'image/png', dataBase64: cut() }], attach: ['gone.png'] },
        new AbortController().signal,
        { onProblems: (p) => heard.push(...p) },
      );
      assert.equal(sent.problems.length, 2, 'both attachments were refused, with notes');
      assert.deepEqual(heard, sent.problems, 'the caller heard them before the turn');
      assert.equal(s.title, 'why is the build red?');
      assert.equal(h.store.getSession(s.id)?.title, 'why is the build red?');
    });

    it('with no text, comes from the names of what was attached, never the notes', async () => {
      h = await createHarness();
      h.server.enqueue({ text: 'ok' });
      const s = h.agent.newSession();
      await h.agent.send(s, { text: '', images: [{ name: 'screenshot.png', mime: 'image/png', dataBase64: cut() }] }, new AbortController().signal);
      assert.equal(h.store.getSession(s.id)?.title, 'screenshot.png');
    });
  });
});
