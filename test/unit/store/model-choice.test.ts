import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadSqlJs } from '../../../extension/core/store';
import { migrate } from '../../../extension/core/store/schema';
import { newSession, open, tempDir } from './helpers';

describe('store: the model picked for a session (schema v5)', () => {
  it('is kept with the session: created with it, changed, and read back after reopening (journal and folded file)', async () => {
    const file = path.join(tempDir(), 'state.db');
    const db = await open(file);
    const s = db.createSession({ ...newSession, id: 's1', modelChoice: { model: 'o4-mini', effort: 'high' } });
    assert.deepEqual(s.modelChoice, { model: 'o4-mini', effort: 'high' });
    db.createSession({ ...newSession, id: 's2' });
    assert.deepEqual(db.getSession('s2')?.modelChoice, {}, 'none picked: the settings apply');
    db.updateSession('s2', { modelChoice: { effort: 'low' } });
    await db.close();

    const again = await open(file);
    assert.deepEqual(again.getSession('s1')?.modelChoice, { model: 'o4-mini', effort: 'high' });
    assert.deepEqual(again.getSession('s2')?.modelChoice, { effort: 'low' });
    again.updateSession('s1', { modelChoice: {} });
    await again.flush();
    await again.close();

    const third = await open(file);
    assert.deepEqual(third.getSession('s1')?.modelChoice, {}, 'back to the settings');
    await third.close();
  });

  it('a v4 database migrates with no choice for its sessions; a damaged value reads as none', async () => {
    const SQL = await loadSqlJs();
    const v4 = new SQL.Database();
    migrate(v4, 4);
    v4.run(`INSERT INTO sessions (id, parent_id, title, workspace_root, mode, role, loaded_tools, created, updated) VALUES ('old', NULL, 'v4', '/w', 'code', 'default', '[]', 1, 2)`);
    const file = path.join(tempDir(), 'state.db');
    fs.writeFileSync(file, v4.export());
    v4.close();

    const db = await open(file);
    assert.deepEqual(db.getSession('old')?.modelChoice, {});
    db.updateSession('old', { modelChoice: { model: 'gpt-5' } });
    assert.deepEqual(db.getSession('old')?.modelChoice, { model: 'gpt-5' });
    await db.flush();
    await db.close();

    const saved = new SQL.Database(fs.readFileSync(file));
    saved.run(`UPDATE sessions SET model_choice = '{"model": "has space", "effort": "extreme"}' WHERE id = 'old'`);
    fs.writeFileSync(file, saved.export());
    saved.close();
    const damaged = await open(file);
    assert.deepEqual(damaged.getSession('old')?.modelChoice, {});
    await damaged.close();
  });
});
