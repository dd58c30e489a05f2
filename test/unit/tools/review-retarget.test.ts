import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createDiskFileWriter } from '../../../extension/core/tools/disk-reader';
import type { ApprovalRequest } from '../../../extension/core/tools/types';
import { call, makeCtx, tempDir, writeTree } from './helpers';

/**
 * The red team's rt-review-toctou / rt-review-change: while the user reviews a proposed write,
 * something swaps the file's name for a link; the approved write must not follow it.
 */
describe('diff review: the approved write lands where it was reviewed (red team N11)', () => {
  let ws: string;
  let outside: string;
  beforeEach(() => {
    ws = tempDir('sp-n11-ws-');
    outside = tempDir('sp-n11-outside-');
    writeTree(ws, { 'src/a.txt': 'same text\n', '.git/hooks/.keep': '' });
  });

  /** A context whose approver runs `meanwhile` while "the user reviews", then accepts. */
  function reviewing(meanwhile: (req: ApprovalRequest) => void) {
    return makeCtx(ws, {
      decide: (req) => {
        meanwhile(req);
        return 'allow';
      },
    });
  }

  it('N11 E2: an edited file becomes a link to an outside file with the same text; nothing is written there', async () => {
    fs.writeFileSync(path.join(outside, 'same.txt'), 'same text\n');
    const ctx = reviewing(() => {
      fs.rmSync(path.join(ws, 'src/a.txt'));
      fs.symlinkSync(path.join(outside, 'same.txt'), path.join(ws, 'src/a.txt'));
    });
    const res = await call(ctx, 'edit_file', { path: 'src/a.txt', old_string: 'same', new_string: 'EDITED' });
    assert.equal(ctx.asked.length, 1);
    assert.equal(res.ok, false, res.content);
    assert.match(res.content, /changed while the edit waited for approval/);
    assert.equal(fs.readFileSync(path.join(outside, 'same.txt'), 'utf8'), 'same text\n');
  });

  it('N11 E2: a new file\'s name becomes a dangling link out of the workspace; the file is not created there', async () => {
    const ctx = reviewing(() => fs.symlinkSync(path.join(outside, 'escaped.txt'), path.join(ws, 'src/new.txt')));
    const res = await call(ctx, 'write_file', { path: 'src/new.txt', content: 'payload\n' });
    assert.equal(res.ok, false, res.content);
    assert.ok(!fs.existsSync(path.join(outside, 'escaped.txt')), 'created outside the workspace');
  });

  it('N11 E2: a new file\'s name becomes a dangling link into .git; no hook is created', async () => {
    const ctx = reviewing(() => fs.symlinkSync('../.git/hooks-escaped', path.join(ws, 'src/new.txt')));
    const res = await call(ctx, 'write_file', { path: 'src/new.txt', content: '#!/bin/sh\ntouch pwned\n' });
    assert.equal(res.ok, false, res.content);
    assert.ok(!fs.existsSync(path.join(ws, '.git/hooks-escaped')));
  });

  it('N11: the file gains a second hard link (into .git/hooks) during the review; the path facts are checked again and nothing is written', async () => {
    const ctx = reviewing(() => fs.linkSync(path.join(ws, 'src/a.txt'), path.join(ws, '.git/hooks/post-checkout')));
    const res = await call(ctx, 'write_file', { path: 'src/a.txt', content: '#!/bin/sh\ntouch pwned\n' });
    assert.equal(res.ok, false, res.content);
    assert.match(res.content, /hard link/);
    assert.equal(fs.readFileSync(path.join(ws, '.git/hooks/post-checkout'), 'utf8'), 'same text\n');
  });

  it('N11: the disk writer never follows a link at the file\'s name (O_NOFOLLOW), and never replaces a file it was to create (O_EXCL)', async () => {
    const writer = createDiskFileWriter();
    fs.writeFileSync(path.join(outside, 'victim.txt'), 'VICTIM\n');
    fs.symlinkSync(path.join(outside, 'victim.txt'), path.join(ws, 'link.txt'));
    await assert.rejects(writer.write(path.join(ws, 'link.txt'), new TextEncoder().encode('x'), undefined, {}));
    assert.equal(fs.readFileSync(path.join(outside, 'victim.txt'), 'utf8'), 'VICTIM\n');
    await assert.rejects(writer.write(path.join(ws, 'src/a.txt'), new TextEncoder().encode('x'), undefined, { created: true }));
    assert.equal(fs.readFileSync(path.join(ws, 'src/a.txt'), 'utf8'), 'same text\n');
    await writer.write(path.join(ws, 'src/fresh.txt'), new TextEncoder().encode('new\n'), undefined, { created: true });
    assert.equal(fs.readFileSync(path.join(ws, 'src/fresh.txt'), 'utf8'), 'new\n');
  });

  it('N11 (control): an ordinary reviewed write still lands', async () => {
    const ctx = reviewing(() => {});
    const res = await call(ctx, 'write_file', { path: 'src/b.txt', content: 'b\n' });
    assert.equal(res.ok, true, res.content);
    assert.equal(fs.readFileSync(path.join(ws, 'src/b.txt'), 'utf8'), 'b\n');
  });
});
