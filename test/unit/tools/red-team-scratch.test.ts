/** Red-team L9: saved outputs are capped and private; scratch folders go with their session and by age. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MAX_SAVED_CHARS, OutputCapture } from '../../../extension/core/tools/exec/output-capture';
import { pruneOldScratch, removeSessionScratch } from '../../../extension/core/tools/exec/scratch';
import { call, makeCtx, tempDir } from './helpers';

const NOTE = /\n\[… (\d+) chars omitted; (full output|its first (\d+) chars are) in ([^\]]+)\]\n/;
const mode = (p: string) => fs.statSync(p).mode & 0o777;

describe('red team: scratch output (L9)', () => {
  it('L9, P21: a shell command printing 60 MB leaves at most 50 MB plus a marker line in scratch, and the model is told so', async () => {
    const ctx = makeCtx(tempDir(), { settings: { 'tools.outputMaxChars': 10_000 } });
    const res = await call(ctx, 'shell', { command: 'head -c 60000000 /dev/zero | tr "\\0" A; echo; echo LAST' });
    assert.equal(res.ok, true);
    assert.match(res.content, /LAST\n\[exit code 0\]$/, 'the model still sees the real tail');
    const m = NOTE.exec(res.content);
    assert.ok(m, res.content.slice(0, 5000));
    assert.equal(Number(m![3]), MAX_SAVED_CHARS);
    const file = m![4];
    const marker = `\n[Snowpea saved only the first ${MAX_SAVED_CHARS} characters of this output; the rest was not saved]\n`;
    assert.equal(fs.statSync(file).size, MAX_SAVED_CHARS + marker.length);
    const fd = fs.openSync(file, 'r');
    const end = Buffer.alloc(marker.length);
    fs.readSync(fd, end, 0, end.length, MAX_SAVED_CHARS);
    fs.closeSync(fd);
    assert.equal(end.toString(), marker);
  });

  it('L9: the saved output file is 0600 in a 0700 scratch folder, even one created 0755 before', async () => {
    const scratch = path.join(tempDir(), 'scratch', 's1');
    fs.mkdirSync(scratch, { recursive: true, mode: 0o755 });
    fs.chmodSync(scratch, 0o755);
    const cap = new OutputCapture(10, scratch, 'shell', 100);
    cap.push('x'.repeat(500));
    const out = await cap.finish((p) => p);
    assert.equal(out.saveCapped, true);
    assert.equal(mode(out.fullPath!), 0o600);
    assert.equal(mode(scratch), 0o700);
    assert.match(fs.readFileSync(out.fullPath!, 'utf8'), /^x{100}\n\[Snowpea saved only the first 100 characters of this output; the rest was not saved\]\n$/);
  });

  it('L9: removeSessionScratch deletes a session folder and nothing outside it', async () => {
    const root = path.join(tempDir(), 'scratch');
    for (const d of ['s1', 's2', 'attachments']) fs.mkdirSync(path.join(root, d), { recursive: true });
    fs.writeFileSync(path.join(root, 's1', 'shell-1.log'), 'out');
    assert.equal(await removeSessionScratch(root, 's1'), true);
    assert.equal(fs.existsSync(path.join(root, 's1')), false);
    for (const bad of ['..', '.', '', '../scratch', 'attachments', 's2/../s2']) assert.equal(await removeSessionScratch(root, bad), false, bad);
    assert.deepEqual(fs.readdirSync(root).sort(), ['attachments', 's2']);
    assert.equal(await removeSessionScratch(root, 'never-existed'), false);
  });

  it('L9, P21: pruneOldScratch removes session folders untouched for 7 days, keeps recent ones and attachments, and makes the root 0700', async () => {
    const root = path.join(tempDir(), 'scratch');
    const now = Date.now();
    const old = (now - 8 * 24 * 3600 * 1000) / 1000;
    for (const d of ['old', 'recent', 'attachments', 'old-dir-new-file']) fs.mkdirSync(path.join(root, d), { recursive: true });
    fs.chmodSync(root, 0o755);
    fs.writeFileSync(path.join(root, 'old', 'shell.log'), 'x');
    fs.writeFileSync(path.join(root, 'old-dir-new-file', 'shell.log'), 'x');
    for (const p of ['old/shell.log', 'old', 'attachments', 'old-dir-new-file']) fs.utimesSync(path.join(root, p), old, old);
    const removed = await pruneOldScratch(root, 7, now);
    assert.deepEqual(removed, [path.join(root, 'old')]);
    assert.deepEqual(fs.readdirSync(root).sort(), ['attachments', 'old-dir-new-file', 'recent']);
    assert.equal(mode(root), 0o700);
  });
});
