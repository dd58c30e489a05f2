import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The attachment store's code: nothing here may decode on the host's thread. */
const ROOT = path.resolve(__dirname, '../../../extension/core/images');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('images: decoding stays in the worker', () => {
  it('in the attachment store, only reencode.ts imports jimp, and only the worker entry imports reencode.ts', () => {
    const importers = sources(ROOT)
      .filter((f) => /from ['"]jimp['"]|require\(['"]jimp['"]\)|import\(['"]jimp['"]\)/.test(fs.readFileSync(f, 'utf8')))
      .map((f) => path.relative(ROOT, f).split(path.sep).join('/'));
    assert.deepEqual(importers, ['reencode.ts']);
    const reencodeUsers = sources(ROOT)
      .filter((f) => /from ['"]\.\/reencode['"]/.test(fs.readFileSync(f, 'utf8')))
      .map((f) => path.relative(ROOT, f).split(path.sep).join('/'));
    assert.deepEqual(reencodeUsers, ['image-worker.ts']);
  });
});
