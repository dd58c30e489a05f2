import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadSqlJs, SCHEMA_VERSION } from '../../../extension/core/store';
import { getMeta, migrate, migrations, schemaVersion } from '../../../extension/core/store/schema';
import { open, tempDir } from './helpers';

describe('store: schema migrations', () => {
  it('has one migration per version and creates the newest schema from nothing', async () => {
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    assert.equal(schemaVersion(db), 0);
    assert.equal(migrate(db), 0);
    assert.equal(schemaVersion(db), SCHEMA_VERSION);
    assert.equal(SCHEMA_VERSION, migrations.length);
    assert.ok(SCHEMA_VERSION >= 2);
    db.close();
  });

  it('opens a v1 database written by an older Snowpea and migrates it, keeping its data', async () => {
    const SQL = await loadSqlJs();
    const v1 = new SQL.Database();
    migrate(v1, 1);
    assert.equal(schemaVersion(v1), 1);
    v1.run(`INSERT INTO sessions (id, parent_id, title, workspace_root, mode, role, loaded_tools, created, updated)
            VALUES ('old', NULL, 'From v1', '/w', 'code', 'default', '["git_log"]', 1000, 2000)`);
    const body = JSON.stringify({ role: 'assistant', content: 'hello from v1 ✓' });
    v1.run(`INSERT INTO messages (session_id, seq, turn, round, role, body) VALUES ('old', 1, 1, 1, 'assistant', ?)`, [body]);
    v1.run(`INSERT INTO tool_calls (session_id, call_id, tool, args, ok, error_code, started, ended) VALUES ('old', 'c0', 'grep', '{}', 1, NULL, 5, 6)`);
    const file = path.join(tempDir(), 'state.db');
    fs.writeFileSync(file, v1.export());
    v1.close();

    const db = await open(file);
    assert.equal(db.notice, null);
    assert.deepEqual(db.getSession('old')?.loadedTools, ['git_log']);
    assert.deepEqual(db.getMessages('old'), [JSON.parse(body)]);
    assert.deepEqual(db.listSessions(), [{ id: 'old', title: 'From v1', created: 1000, updated: 2000, rounds: 1 }]);
    // v2 columns work on the migrated database.
    db.recordToolCall('old', { callId: 'c1', tool: 'shell', args: '{}', ok: true, turn: 2, round: 3, started: 7, ended: 8 });
    assert.deepEqual(
      db.getToolCalls('old').map((c) => [c.callId, c.turn, c.round]),
      [
        ['c0', null, null],
        ['c1', 2, 3],
      ],
    );
    await db.close();

    const saved = new SQL.Database(fs.readFileSync(file));
    assert.equal(getMeta(saved, 'schema_version'), String(SCHEMA_VERSION));
    assert.ok(saved.exec(`SELECT name FROM sqlite_master WHERE name = 'messages_rounds'`).length);
    saved.close();
  });

  it('leaves a database from a newer Snowpea as it is and says so', async () => {
    const SQL = await loadSqlJs();
    const future = new SQL.Database();
    migrate(future);
    future.run(`UPDATE meta SET value = ? WHERE key = 'schema_version'`, [String(SCHEMA_VERSION + 5)]);
    const file = path.join(tempDir(), 'state.db');
    fs.writeFileSync(file, future.export());
    future.close();
    const db = await open(file);
    assert.match(db.notice!, new RegExp(`newer Snowpea \\(schema v${SCHEMA_VERSION + 5}`));
    assert.equal(fs.readdirSync(path.dirname(file)).filter((n) => n.includes('corrupt')).length, 0);
    await db.close();
  });
});
