import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FileWriter } from '../../../extension/core/tools/types';
import { call, makeCtx, tempDir, writeTree } from './helpers';

const read = (ws: string, p: string) => fs.readFileSync(path.join(ws, p), 'utf8');

describe('tools: write_file', () => {
  const ws = tempDir();

  it('creates a file and its parent folders, then overwrites it, reporting line counts', async () => {
    const ctx = makeCtx(ws);
    const created = await call(ctx, 'write_file', { path: 'deep/er/new.ts', content: 'a\nb\nc\n' });
    assert.equal(created.content, 'created deep/er/new.ts (3 lines)');
    assert.deepEqual(created.writtenPaths, [path.join(ws, 'deep/er/new.ts')]);
    assert.equal(read(ws, 'deep/er/new.ts'), 'a\nb\nc\n');
    const over = await call(ctx, 'write_file', { path: 'deep/er/new.ts', content: 'x\n' });
    assert.equal(over.content, 'overwrote deep/er/new.ts (3 lines → 1 line)');
    assert.equal(read(ws, 'deep/er/new.ts'), 'x\n');
    assert.equal(ctx.asked.length, 2);
    assert.equal(ctx.asked[0].summary, 'write deep/er/new.ts (3 lines)');
  });

  it('refuses to write over a folder', async () => {
    fs.mkdirSync(path.join(ws, 'adir'), { recursive: true });
    const res = await call(makeCtx(ws), 'write_file', { path: 'adir', content: 'x' });
    assert.equal(res.ok, false);
    assert.match(res.content, /adir is a folder/);
  });

  it('writes through ctx.fileWriter when the host gives one', async () => {
    const written: string[] = [];
    const writer: FileWriter = { async write(p, bytes) { written.push(`${p}=${new TextDecoder().decode(bytes)}`); } };
    const res = await call(makeCtx(ws, { extra: { fileWriter: writer } }), 'write_file', { path: 'via-editor.ts', content: 'hi' });
    assert.equal(res.ok, true);
    assert.deepEqual(written, [`${path.join(ws, 'via-editor.ts')}=hi`]);
    assert.equal(fs.existsSync(path.join(ws, 'via-editor.ts')), false);
  });
});

describe('tools: edit_file', () => {
  const ws = tempDir();
  const src = ['function add(a, b) {', '  return a + b;', '}', '', 'function sub(a, b) {', '  return a - b;', '}', ''].join('\n');

  beforeEach(() => writeTree(ws, { 'm.js': src, 'dup.txt': 'x = 1\ny = 2\nx = 1\n', 'crlf.txt': 'one\r\ntwo\r\nthree\r\n' }));

  it('replaces exactly one match and reports what changed in a few lines', async () => {
    const res = await call(makeCtx(ws), 'edit_file', { path: 'm.js', old_string: '  return a - b;', new_string: '  // subtract\n  return a - b;' });
    assert.equal(res.ok, true, res.content);
    assert.equal(read(ws, 'm.js'), src.replace('  return a - b;', '  // subtract\n  return a - b;'));
    assert.equal(res.content, 'edited m.js: replaced 1 line(s) at line 6 with 2 line(s); the file now has 8 lines\n    6\t  // subtract\n    7\t  return a - b;');
    assert.deepEqual(res.writtenPaths, [path.join(ws, 'm.js')]);
  });

  it('zero matches is no_match and shows the nearest similar lines', async () => {
    const res = await call(makeCtx(ws), 'edit_file', { path: 'm.js', old_string: 'return a * b;', new_string: 'return 0;' });
    assert.equal(res.error?.code, 'no_match');
    assert.match(res.content, /old_string was not found in m\.js/);
    assert.match(res.content, /\(line 2, \d+% similar\)\n {4}2\t {2}return a \+ b;/);
    assert.equal(read(ws, 'm.js'), src, 'file untouched');
    const nothing = await call(makeCtx(ws), 'edit_file', { path: 'm.js', old_string: 'QQQQ ZZZZ', new_string: '' });
    assert.match(nothing.content, /Nothing similar was found/);
  });

  it('two matches without replace_all is multiple_matches listing the line numbers; replace_all replaces both', async () => {
    const res = await call(makeCtx(ws), 'edit_file', { path: 'dup.txt', old_string: 'x = 1', new_string: 'x = 3' });
    assert.equal(res.error?.code, 'multiple_matches');
    assert.match(res.content, /occurs 2 times in dup\.txt \(at lines 1, 3\)/);
    assert.equal(read(ws, 'dup.txt'), 'x = 1\ny = 2\nx = 1\n');
    const all = await call(makeCtx(ws), 'edit_file', { path: 'dup.txt', old_string: 'x = 1', new_string: 'x = 3', replace_all: true });
    assert.equal(all.ok, true);
    assert.match(all.content, /replaced 2 occurrences \(first at line 1\)/);
    assert.equal(read(ws, 'dup.txt'), 'x = 3\ny = 2\nx = 3\n');
  });

  it('matches LF text in a CRLF file and keeps CRLF', async () => {
    const res = await call(makeCtx(ws), 'edit_file', { path: 'crlf.txt', old_string: 'one\ntwo', new_string: 'uno\ndos' });
    assert.equal(res.ok, true, res.content);
    assert.equal(read(ws, 'crlf.txt'), 'uno\r\ndos\r\nthree\r\n');
  });

  it('refuses a missing file, identical strings, an empty old_string, a binary file and non-UTF-8 text', async () => {
    assert.equal((await call(makeCtx(ws), 'edit_file', { path: 'nope.js', old_string: 'a', new_string: 'b' })).error?.code, 'not_found');
    assert.match((await call(makeCtx(ws), 'edit_file', { path: 'm.js', old_string: '}', new_string: '}' })).content, /the same/);
    assert.equal((await call(makeCtx(ws), 'edit_file', { path: 'm.js', old_string: '', new_string: 'b' })).error?.code, 'invalid_arguments');
    writeTree(ws, { 'b.bin': new Uint8Array([1, 0, 2]), 'l1.txt': new Uint8Array([0x63, 0xe9, 0x0a]) });
    assert.equal((await call(makeCtx(ws), 'edit_file', { path: 'b.bin', old_string: 'a', new_string: 'b' })).error?.code, 'binary_file');
    assert.match((await call(makeCtx(ws), 'edit_file', { path: 'l1.txt', old_string: 'c', new_string: 'd' })).content, /UTF-8 text only/);
  });

  it('keeps a UTF-8 BOM', async () => {
    writeTree(ws, { 'bom.txt': '\ufeffhello\n' });
    await call(makeCtx(ws), 'edit_file', { path: 'bom.txt', old_string: 'hello', new_string: 'bye' });
    assert.deepEqual([...fs.readFileSync(path.join(ws, 'bom.txt'))].slice(0, 3), [0xef, 0xbb, 0xbf]);
    assert.equal(read(ws, 'bom.txt'), '\ufeffbye\n');
  });
});
