import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MAX_LINE_CHARS } from '../../../extension/core/tools/core/read-file';
import type { FileReader } from '../../../extension/core/tools/types';
import { call, makeCtx, tempDir, writeTree } from './helpers';

describe('tools: read_file', () => {
  const ws = tempDir();
  const outside = tempDir('snowpea-outside-');
  const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
  writeTree(ws, {
    'src/app.ts': `${lines.join('\n')}\n`,
    'empty.txt': '',
    'bin.dat': new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3, 0, 0]),
    'logo.PNG': new Uint8Array(1234),
    'pic.webp': new Uint8Array(10),
    'latin1.txt': new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x6e, 0x61, 0xef, 0x76, 0x65, 0x0a]), // "café\nnaïve\n" in Latin-1
    'utf16.txt': new Uint8Array([0xff, 0xfe, 0x68, 0, 0x69, 0, 0x0a, 0]),
    'crlf.txt': 'a\r\nb\r\n',
    'long.txt': `${'x'.repeat(MAX_LINE_CHARS + 500)}\nshort\n`,
  });
  writeTree(outside, { 'secret.txt': 'secret\n' });
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, 'sneaky.txt'));

  it('returns 1-based numbered lines with sha256, realPath and totalLines', async () => {
    const res = await call(makeCtx(ws), 'read_file', { path: 'src/app.ts' });
    assert.equal(res.ok, true);
    const out = res.content.split('\n');
    assert.equal(out[0], '    1\tline 1');
    assert.equal(out[29], '   30\tline 30');
    assert.equal(out.length, 30, 'no paging note when everything was shown');
    const bytes = fs.readFileSync(path.join(ws, 'src/app.ts'));
    assert.equal(res.sha256, createHash('sha256').update(bytes).digest('hex'));
    assert.equal(res.realPath, path.join(ws, 'src/app.ts'));
    assert.equal(res.totalLines, 30);
  });

  it('pages with offset and limit and says how to read the rest; the default cap is tools.readMaxLines', async () => {
    const page = await call(makeCtx(ws), 'read_file', { path: 'src/app.ts', offset: 11, limit: 5 });
    const out = page.content.split('\n');
    assert.deepEqual(out.slice(0, 5), ['   11\tline 11', '   12\tline 12', '   13\tline 13', '   14\tline 14', '   15\tline 15']);
    assert.equal(out[5], '[showing lines 11-15 of 30; to read more, call read_file with offset=16]');
    const capped = await call(makeCtx(ws, { settings: { 'tools.readMaxLines': 10 } }), 'read_file', { path: 'src/app.ts' });
    assert.equal(capped.content.split('\n').length, 11);
    assert.match(capped.content, /\[showing lines 1-10 of 30; to read more, call read_file with offset=11\]$/);
    const tail = await call(makeCtx(ws), 'read_file', { path: 'src/app.ts', offset: 29 });
    assert.equal(tail.content, '   29\tline 29\n   30\tline 30');
  });

  it('an offset past the end is refused with the line count', async () => {
    const res = await call(makeCtx(ws), 'read_file', { path: 'src/app.ts', offset: 31 });
    assert.equal(res.error?.code, 'invalid_arguments');
    assert.match(res.content, /offset 31 is past the end of src\/app\.ts, which has 30 lines/);
  });

  it('a missing file is not_found and suggests similar names', async () => {
    const res = await call(makeCtx(ws), 'read_file', { path: 'src/ap.ts' });
    assert.equal(res.error?.code, 'not_found');
    assert.match(res.content, /src\/ap\.ts does not exist\. Similar: src\/app\.ts/);
    const nowhere = await call(makeCtx(ws), 'read_file', { path: 'nope/zzz.qqq' });
    assert.equal(nowhere.error?.code, 'not_found');
  });

  it('a folder is refused with a pointer to list_dir/glob', async () => {
    const res = await call(makeCtx(ws), 'read_file', { path: 'src' });
    assert.equal(res.ok, false);
    assert.match(res.content, /src is a folder/);
  });

  it('a binary file is refused with binary_file', async () => {
    const res = await call(makeCtx(ws), 'read_file', { path: 'bin.dat' });
    assert.equal(res.error?.code, 'binary_file');
    assert.match(res.content, /bin\.dat is a binary file \(10 bytes\)/);
  });

  it('an image returns exactly one line pointing at view_image', async () => {
    const res = await call(makeCtx(ws), 'read_file', { path: 'logo.PNG' });
    assert.equal(res.ok, true);
    assert.equal(res.content, 'logo.PNG is an image (1234 bytes); use view_image to look at it');
    assert.equal((await call(makeCtx(ws), 'read_file', { path: 'pic.webp' })).content, 'pic.webp is an image (10 bytes); use view_image to look at it');
  });

  it('non-UTF-8 text is decoded as Latin-1 with a note; UTF-16 with a BOM is decoded', async () => {
    const res = await call(makeCtx(ws), 'read_file', { path: 'latin1.txt' });
    assert.equal(res.ok, true);
    assert.equal(res.content, '    1\tcafé\n    2\tnaïve\n[latin1.txt: not valid UTF-8; decoded as Latin-1 (windows-1252)]');
    const u16 = await call(makeCtx(ws), 'read_file', { path: 'utf16.txt' });
    assert.equal(u16.content, '    1\thi\n[utf16.txt: decoded as UTF-16LE]');
  });

  it('CRLF lines, empty files and very long lines', async () => {
    assert.equal((await call(makeCtx(ws), 'read_file', { path: 'crlf.txt' })).content, '    1\ta\n    2\tb');
    const empty = await call(makeCtx(ws), 'read_file', { path: 'empty.txt' });
    assert.equal(empty.content, 'empty.txt is empty (0 lines)');
    assert.equal(empty.totalLines, 0);
    const long = await call(makeCtx(ws), 'read_file', { path: 'long.txt' });
    const [first, second] = long.content.split('\n');
    assert.equal(first.length, '    1\t'.length + MAX_LINE_CHARS + '… [line clipped: 500 more chars; use grep or shell to see all of it]'.length);
    assert.match(first, /… \[line clipped: 500 more chars/);
    assert.equal(second, '    2\tshort');
  });

  it('reads through ctx.fileReader (the editor text when the host gives one)', async () => {
    const editor: FileReader = {
      async read() {
        const bytes = new TextEncoder().encode('unsaved\nedit\n');
        return { bytes, sha256: 'feedbeef'.repeat(8), fromEditor: true };
      },
    };
    const res = await call(makeCtx(ws, { extra: { fileReader: editor } }), 'read_file', { path: 'src/app.ts' });
    assert.equal(res.content, '    1\tunsaved\n    2\tedit');
    assert.equal(res.sha256, 'feedbeef'.repeat(8));
    assert.equal(res.totalLines, 2);
  });

  it('a symlink escaping the workspace asks first, and a refusal keeps the content hidden', async () => {
    const ctx = makeCtx(ws, { decide: () => 'deny' });
    const res = await call(ctx, 'read_file', { path: 'sneaky.txt' });
    assert.equal(res.error?.code, 'denied');
    assert.doesNotMatch(res.content, /secret\n/);
    assert.equal(ctx.asked[0].alwaysAsk, true);
    assert.match(ctx.asked[0].reason!, new RegExp(`${outside}/secret\\.txt is outside the workspace`));
  });
});
