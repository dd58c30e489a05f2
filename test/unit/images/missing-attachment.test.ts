import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { composeUserPrompt } from '../../../extension/core/input/compose';
import { createHarness, type Harness } from '../../fixtures/agent-harness';
import { makePng } from '../../fixtures/images/make';

const signal = () => new AbortController().signal;

describe('images: an attachment whose stored file is gone', () => {
  let h: Harness;
  afterEach(async () => h && (await h.close()));

  async function twoImages(): Promise<{ content: any; keep: Buffer; goneId: string }> {
    const keep = makePng({ width: 64, height: 32 });
    const gone = makePng({ width: 40, height: 30 });
    const composed = await composeUserPrompt(
      {
        text: 'compare these',
        images: [
          { name: 'keep.png', mime: 'image/png', dataBase64: keep.toString('base64') },
          { name: 'gone.png', mime: 'image/png', dataBase64: gone.toString('base64') },
        ],
      },
      { workspaceRoot: h.workspace, store: h.agent.attachments, readMaxLines: 2000 },
    );
    const goneId = composed.images[1].imageId;
    fs.rmSync(h.agent.attachments.pathOf(goneId)!);
    return { content: composed.content, keep, goneId };
  }

  it('a vision model gets a marker saying the stored file is missing, not "no vision"; the rest of the request stays', async () => {
    h = await createHarness({ supportsImages: true });
    const { content, keep, goneId } = await twoImages();
    h.server.enqueue({ text: 'one is missing' }, { text: 'still missing' });
    const s = h.agent.newSession();
    await h.agent.runTurn(s, content, signal());
    await h.agent.runTurn(s, 'and now?', signal());

    for (const body of h.bodies()) {
      assert.deepEqual(body.messages[1].content, [
        { type: 'text', text: 'compare these' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${keep.toString('base64')}` } },
        { type: 'text', text: '[image: gone.png, 40x30, not sent: the stored file is missing]' },
      ]);
    }
    assert.equal(h.bodies()[1].messages.at(-1).content, 'and now?');
    const warnings = h.log.lines.filter((l) => l.startsWith('warn:') && l.includes(goneId));
    assert.equal(warnings.length, 1, `one warning for the missing file, not one per round: ${warnings.join(' | ')}`);
    assert.match(warnings[0], /gone\.png/);
  });

  it('a model without vision still gets the no-vision marker, exactly', async () => {
    h = await createHarness({ supportsImages: false });
    const { content } = await twoImages();
    h.server.enqueue({ text: 'ok' });
    await h.agent.runTurn(h.agent.newSession(), content, signal());
    assert.equal(
      h.bodies()[0].messages[1].content,
      'compare these\n[image: keep.png, 64x32, not sent: model has no vision]\n[image: gone.png, 40x30, not sent: model has no vision]',
    );
  });

  it('an id the store does not know says so', async () => {
    h = await createHarness({ supportsImages: true });
    const ref = { type: 'image' as const, imageId: 'f'.repeat(24), name: 'elsewhere.png', mime: 'image/png', width: 8, height: 8 };
    h.server.enqueue({ text: 'ok' });
    await h.agent.runTurn(h.agent.newSession(), [{ type: 'text', text: 'look' }, ref], signal());
    assert.equal(h.bodies()[0].messages[1].content, 'look\n[image: elsewhere.png, 8x8, not sent: it is not in the attachment store]');
  });
});
