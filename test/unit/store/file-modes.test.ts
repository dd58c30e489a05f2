/** Red-team L9: state.db, its journal and content files, and the attachment store are private to the user. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AttachmentStore } from '../../../extension/core/images/store';
import { makePng } from '../../fixtures/images/make';
import { newSession, open, tempDir } from './helpers';

const mode = (p: string) => fs.statSync(p).mode & 0o777;
const LIMITS = { maxFileBytes: 20 * 1024 * 1024, maxDimension: 2048, maxBytes: 5 * 1024 * 1024 };

describe('store: file modes (L9)', () => {
  let dir: string;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('L9: a new state.db, its folder, journal, content folder and files are created 0600/0700', async () => {
    const home = path.join(dir, 'home', '.snowpea');
    const file = path.join(home, 'state.db');
    const db = await open(file);
    db.createSession({ ...newSession, id: 's' });
    db.appendMessage('s', { turn: 1, round: 0, message: { role: 'user', content: 'the .env said KEY=1\n'.repeat(1000) } });
    await db.commitRound();
    assert.equal(mode(home), 0o700, '~/.snowpea');
    assert.equal(mode(`${file}.journal`), 0o600, 'journal');
    assert.equal(mode(`${file}.lock`), 0o600, 'lock');
    const content = `${file}.content`;
    assert.equal(mode(content), 0o700, 'content folder');
    const names = fs.readdirSync(content);
    assert.ok(names.length > 0, 'a large message went to a content file');
    for (const n of names) assert.equal(mode(path.join(content, n)), 0o600, n);
    await db.close();
    assert.equal(mode(file), 0o600, 'state.db');
  });

  it('L9: an existing state.db and journal made 0644 by an older version are narrowed to 0600 when opened', async () => {
    const file = path.join(dir, 'state.db');
    await (await open(file)).close();
    fs.chmodSync(file, 0o644);
    fs.writeFileSync(`${file}.journal`, '');
    fs.chmodSync(`${file}.journal`, 0o644);
    const db = await open(file);
    assert.equal(mode(file), 0o600);
    assert.equal(mode(`${file}.journal`), 0o600);
    await db.close();
  });

  it('L9: attachment files are 0600 in a 0700 attachments folder', async () => {
    const att = path.join(dir, 'scratch', 'attachments');
    const store = new AttachmentStore({ dir: att, limits: () => LIMITS });
    const ref = await store.addBytes(makePng({ width: 20, height: 10 }), { name: 'shot.png', source: 'paste' });
    assert.equal(mode(att), 0o700);
    assert.equal(mode(path.join(dir, 'scratch')), 0o700, 'the scratch root it created');
    assert.equal(mode(store.pathOf(ref.imageId, 'original')!), 0o600);
  });
});
