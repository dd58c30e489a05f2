import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { intToRGBA, Jimp } from 'jimp';
import { sniffFormat } from '../../../../extension/core/images/header';
import { mediaTools } from '../../../../extension/core/tools/media/index';
import { ToolRegistry } from '../../../../extension/core/tools/registry';
import { makePng } from '../../../fixtures/images/make';
import { makeCtx, tempDir, writeTree } from '../helpers';

/** 4x2: the left half red, the right half blue. */
const halves = () => makePng({ width: 4, height: 2, pixel: (x) => (x < 2 ? [255, 0, 0, 255] : [0, 0, 255, 255]) });

async function pixels(file: string) {
  const img = await Jimp.read(file);
  return { w: img.bitmap.width, h: img.bitmap.height, at: (x: number, y: number) => intToRGBA(img.getPixelColor(x, y)) };
}

describe('media_image_transform (jimp, real images)', () => {
  let root: string;
  const reg = new ToolRegistry(mediaTools);
  beforeEach(() => {
    root = tempDir('sp-transform-');
    writeTree(root, { 'img/halves.png': halves() });
  });
  const run = (args: unknown, ctx = makeCtx(root)) => reg.invoke('media_image_transform', JSON.stringify(args), ctx);

  it('crops to the rectangle and saves beside the input, asking approval for the write', async () => {
    const ctx = makeCtx(root);
    const r = await run({ path: 'img/halves.png', crop: { x: 2, y: 0, width: 2, height: 2 } }, ctx);
    assert.equal(r.ok, true, r.content);
    assert.match(r.content, /saved img\/halves-transformed\.png \(2x2 png, from 4x2; crop 2x2\+2\+0\)/);
    const p = await pixels(path.join(root, 'img/halves-transformed.png'));
    assert.deepEqual([p.w, p.h], [2, 2]);
    assert.deepEqual(p.at(0, 0), { r: 0, g: 0, b: 255, a: 255 });
    assert.equal(ctx.asked.length, 1);
    assert.equal(ctx.asked[0].permission, 'write');
    assert.match(ctx.asked[0].summary, /into img\/halves-transformed\.png/);
    assert.deepEqual(r.writtenPaths, [path.join(root, 'img/halves-transformed.png')]);
    assert.ok(fs.existsSync(path.join(root, 'img/halves.png')), 'the input is kept');
  });

  it('rotates clockwise: the left half ends on top', async () => {
    const r = await run({ path: 'img/halves.png', rotate: 90, output: 'out/rot.png' });
    assert.equal(r.ok, true, r.content);
    const p = await pixels(path.join(root, 'out/rot.png'));
    assert.deepEqual([p.w, p.h], [2, 4]);
    assert.equal(p.at(0, 0).r, 255, 'top is red');
    assert.equal(p.at(1, 3).b, 255, 'bottom is blue');
  });

  it('resizes keeping the aspect ratio with one side, and converts to JPEG', async () => {
    const r = await run({ path: 'img/halves.png', resize: { width: 8 }, format: 'jpeg' });
    assert.equal(r.ok, true, r.content);
    const out = path.join(root, 'img/halves-transformed.jpg');
    assert.equal(sniffFormat(fs.readFileSync(out)), 'jpeg');
    const p = await pixels(out);
    assert.deepEqual([p.w, p.h], [8, 4]);
  });

  it('runs crop, rotate, resize in that order and never overwrites an earlier result', async () => {
    await run({ path: 'img/halves.png', resize: { height: 1 } });
    const r = await run({ path: 'img/halves.png', crop: { x: 0, y: 0, width: 2, height: 2 }, rotate: 180, resize: { width: 6, height: 6 } });
    assert.equal(r.ok, true, r.content);
    assert.match(r.content, /saved img\/halves-transformed-2\.png \(6x6 png/);
    const p = await pixels(path.join(root, 'img/halves-transformed-2.png'));
    assert.deepEqual(p.at(3, 3), { r: 255, g: 0, b: 0, a: 255 });
    assert.deepEqual((await pixels(path.join(root, 'img/halves-transformed.png'))).h, 1);
  });

  it('refuses a crop outside the image, a missing file, and an empty resize', async () => {
    const bad = await run({ path: 'img/halves.png', crop: { x: 3, y: 0, width: 2, height: 2 } });
    assert.equal(bad.error?.code, 'invalid_arguments');
    assert.match(bad.content, /does not fit inside the 4x2 image/);
    const missing = await run({ path: 'img/nope.png', rotate: 90 });
    assert.equal(missing.error?.code, 'not_found');
    const empty = await run({ path: 'img/halves.png', resize: {} });
    assert.equal(empty.error?.code, 'invalid_arguments');
    assert.match(empty.content, /give width, height or both/);
  });

  it('puts the result into the attachment store when the session has one', async () => {
    const added: string[] = [];
    const ctx = makeCtx(root, {
      extra: {
        attachments: {
          supportsImages: true,
          addFile: async (p, o) => (added.push(p), { type: 'image', imageId: 'id1', name: o?.name ?? 'x', mime: 'image/png', width: 2, height: 2 }),
          addBytes: async () => assert.fail('not used'),
          addBase64: async () => assert.fail('not used'),
        },
      },
    });
    const r = await run({ path: 'img/halves.png', crop: { x: 0, y: 0, width: 2, height: 2 } }, ctx);
    assert.deepEqual(added, [path.join(root, 'img/halves-transformed.png')]);
    assert.match(r.content, /image attached: img\/halves-transformed\.png$/);
    assert.equal(r.images?.[0].imageId, 'id1');
  });
});
