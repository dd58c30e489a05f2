import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { journalPath, loadSqlJs } from '../../../extension/core/store';
import { inFolder } from '../../../extension/core/store/db-path';
import { foreignSqlite } from '../../fixtures/store-foreign';
import { newSession, open, tempDir } from './helpers';

/** Every file under `dir` with its bytes (folders as entries), to compare before and after. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const p = path.join(d.parentPath ?? (d as unknown as { path: string }).path, d.name);
    out[path.relative(dir, p)] = d.isDirectory() ? '<dir>' : fs.readFileSync(p).toString('base64');
  }
  return out;
}

describe('store: what recovery may touch (P1, P16, P17)', () => {
  let dir: string;
  beforeEach(() => (dir = tempDir()));

  const refusals: Record<string, () => Promise<string>> = {
    'the project folder': async () => {
      fs.mkdirSync(path.join(dir, 'proj'));
      fs.writeFileSync(path.join(dir, 'proj', 'main.ts'), 'code\n');
      return path.join(dir, 'proj');
    },
    'README.md': async () => {
      fs.writeFileSync(path.join(dir, 'README.md'), '# my project\n'.repeat(50));
      return path.join(dir, 'README.md');
    },
    'a foreign SQLite file with a meta table': async () => {
      fs.writeFileSync(path.join(dir, 'app.sqlite'), await foreignSqlite(true));
      return path.join(dir, 'app.sqlite');
    },
    'a foreign SQLite file without a meta table': async () => {
      fs.writeFileSync(path.join(dir, 'app-plain.sqlite'), await foreignSqlite(false));
      return path.join(dir, 'app-plain.sqlite');
    },
    'an empty file Snowpea did not make': async () => {
      fs.writeFileSync(path.join(dir, 'notes.txt'), '');
      return path.join(dir, 'notes.txt');
    },
  };
  for (const [name, make] of Object.entries(refusals)) {
    for (const readOnly of [false, true]) {
      it(`P1: ${name} is refused and left byte for byte as it was (${readOnly ? 'read-only' : 'writer'} open)`, async () => {
        const target = await make();
        const before = snapshot(dir);
        await assert.rejects(open(target, { readOnly }), (e: Error) => {
          assert.match(e.message, /is not a Snowpea session database \(.+\); refusing to touch it/);
          assert.ok(e.message.includes(target), e.message);
          return true;
        });
        assert.deepEqual(snapshot(dir), before, 'nothing renamed, written or left behind');
      });
    }
  }

  it("P1: Snowpea's own database from before the mark is still recognised, and gets the mark", async () => {
    const file = path.join(dir, 'state.db');
    const db = await open(file);
    db.createSession(newSession);
    await db.close();
    const SQL = await loadSqlJs();
    const raw = new SQL.Database(fs.readFileSync(file));
    raw.exec(`DELETE FROM meta WHERE key = 'app'`);
    fs.writeFileSync(file, raw.export());
    raw.close();
    const again = await open(file);
    assert.equal(again.listSessions().length, 1);
    assert.equal(again.notice, null);
    await again.close();
    const marked = new SQL.Database(fs.readFileSync(file));
    assert.deepEqual(marked.exec(`SELECT value FROM meta WHERE key = 'app'`)[0].values, [['snowpea']]);
    marked.close();
  });

  it('P16: a 0-byte state.db Snowpea made gives a notice, and the journal still restores what it holds', async () => {
    const file = path.join(dir, 'state.db');
    const db = await open(file);
    const s = db.createSession(newSession);
    await db.commitRound();
    fs.writeFileSync(file, ''); // the snapshot is lost, the journal is not
    const again = await open(file, { lock: false });
    assert.match(again.notice ?? '', /state\.db was empty \(0 bytes\), so the sessions saved in it are gone/);
    assert.deepEqual(again.listSessions().map((x) => x.id), [s.id]);
    await again.close();
  });

  it('P16: a symbolic link to state.db is written through; a dangling one creates its target', async () => {
    const real = path.join(dir, 'data', 'real.db');
    fs.mkdirSync(path.dirname(real));
    const link = path.join(dir, 'state.db');
    fs.symlinkSync(real, link); // dangling for now
    let db = await open(link);
    assert.equal(db.file, real);
    db.createSession(newSession);
    await db.close();
    assert.ok(fs.lstatSync(link).isSymbolicLink(), 'the link stays a link');
    assert.ok(fs.statSync(real).size > 0);
    db = await open(link);
    assert.equal(db.listSessions().length, 1);
    await db.close();
    assert.ok(fs.lstatSync(link).isSymbolicLink());
  });

  it('P16: a read-only state.db is refused by a writer (never replaced) and read by a read-only open', async () => {
    const file = path.join(dir, 'state.db');
    const db = await open(file);
    db.createSession(newSession);
    await db.close();
    fs.chmodSync(file, 0o444);
    const bytes = fs.readFileSync(file);
    await assert.rejects(open(file), /state\.db is read-only \(mode 0444\); Snowpea will not replace it/);
    assert.deepEqual(fs.readFileSync(file), bytes);
    assert.equal(fs.statSync(file).mode & 0o777, 0o444);
    const reader = await open(file, { readOnly: true });
    assert.equal(reader.listSessions().length, 1);
    await reader.close();
  });

  it('P17: a parent path that is a file gets a plain sentence, not EEXIST', async () => {
    fs.writeFileSync(path.join(dir, 'afile'), 'x');
    await assert.rejects(open(path.join(dir, 'afile', 'sub', 'state.db')), (e: Error) => {
      assert.equal(e.message, `${path.join(dir, 'afile')} is a file, not a folder, so Snowpea cannot keep its session database at ${path.join(dir, 'afile', 'sub', 'state.db')}.`);
      return true;
    });
  });

  it('P17: a folder Snowpea may not write in gets a plain sentence, not a raw EACCES on state.db.lock', () => {
    const file = path.join(dir, 'state.db');
    const eacces = Object.assign(new Error(`EACCES: permission denied, open '${file}.lock'`), { code: 'EACCES' });
    assert.throws(
      () => inFolder(file, () => { throw eacces; }),
      { message: `Snowpea cannot write in ${dir} (permission denied), so it cannot keep its session database at ${file}. Choose a folder you can write to, or fix the folder's permissions.` },
    );
  });

  it('P1: a damaged database is still moved aside when its journal shows Snowpea made it', async () => {
    const file = path.join(dir, 'state.db');
    fs.writeFileSync(file, Buffer.alloc(5000, 7));
    fs.writeFileSync(journalPath(file), '');
    const db = await open(file);
    assert.match(db.notice ?? '', /could not read its session database/);
    await db.close();
    assert.equal(fs.readdirSync(dir).filter((n) => n.startsWith('state.db.corrupt-')).length, 1);
  });
});
