import { shownErrors } from './vscode-stand-in';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { BeforeTexts } from '../../../extension/host/edits/proposal-provider';
import { TurnChanges } from '../../../extension/host/edits/turn-changes';

describe('Undo never writes through a symlink (red team N12)', () => {
  let ws: string;
  let outside: string;
  let changes: TurnChanges;
  beforeEach(() => {
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sp-undo-ws-')));
    outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sp-undo-outside-')));
    shownErrors.length = 0;
    changes = new TurnChanges({ post: () => {}, invalidate: () => {}, before: {} as BeforeTexts, redraw: () => {} }, (p) => path.relative(ws, p));
  });
  afterEach(() => {
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  /** An auto-approved agent write of `rel` in one turn. */
  async function agentWrites(rel: string, text: string): Promise<string> {
    const abs = path.join(ws, rel);
    changes.turnStarted();
    await changes.beforeWrite(abs, false);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, text);
    await changes.turnEnded();
    return abs;
  }

  it('N12 E3: the edited file becomes a link to an outside file; Undo refuses and the outside file keeps its bytes', async () => {
    fs.mkdirSync(path.join(ws, 'src'));
    fs.writeFileSync(path.join(ws, 'src/a.txt'), 'original content written by the repo\n');
    const abs = await agentWrites('src/a.txt', 'agent edit\n');
    fs.writeFileSync(path.join(outside, 'victim.txt'), 'VICTIM\n');
    fs.rmSync(abs);
    fs.symlinkSync(path.join(outside, 'victim.txt'), abs);
    await changes.undo('src/a.txt');
    assert.equal(fs.readFileSync(path.join(outside, 'victim.txt'), 'utf8'), 'VICTIM\n');
    assert.equal(shownErrors.length, 1);
    assert.match(shownErrors[0], /src\/a\.txt .*symbolic link/);
  });

  it('N12: the file\'s folder becomes a link out of the workspace; Undo neither writes nor deletes there', async () => {
    fs.mkdirSync(path.join(ws, 'src'));
    fs.writeFileSync(path.join(ws, 'src/a.txt'), 'one\n');
    await agentWrites('src/a.txt', 'two\n');
    await agentWritesToo('src/new.txt', 'created\n');
    fs.writeFileSync(path.join(outside, 'a.txt'), 'OUTSIDE A\n');
    fs.writeFileSync(path.join(outside, 'new.txt'), 'OUTSIDE NEW\n');
    fs.rmSync(path.join(ws, 'src'), { recursive: true });
    fs.symlinkSync(outside, path.join(ws, 'src'));
    await changes.undo();
    assert.equal(fs.readFileSync(path.join(outside, 'a.txt'), 'utf8'), 'OUTSIDE A\n');
    assert.equal(fs.readFileSync(path.join(outside, 'new.txt'), 'utf8'), 'OUTSIDE NEW\n', 'the outside file is not deleted');
    assert.match(shownErrors[0] ?? '', /folder/);
  });

  it('N12 (control): a plain Undo still puts the bytes back and deletes a created file', async () => {
    fs.writeFileSync(path.join(ws, 'a.txt'), 'one\n');
    await agentWrites('a.txt', 'two\n');
    await changes.undo('a.txt');
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'one\n');
    await agentWrites('made.txt', 'new\n');
    await changes.undo('made.txt');
    assert.ok(!fs.existsSync(path.join(ws, 'made.txt')));
    assert.deepEqual(shownErrors, []);
  });

  /** A second agent write in the same turn as the last. */
  async function agentWritesToo(rel: string, text: string): Promise<void> {
    const abs = path.join(ws, rel);
    await changes.beforeWrite(abs, false);
    fs.writeFileSync(abs, text);
  }
});
