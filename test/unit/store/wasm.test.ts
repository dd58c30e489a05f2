import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadSqlJs, locateSqlWasm } from '../../../extension/core/store';
import { tempDir } from './helpers';

describe('store: locating sql.js wasm', () => {
  it('uses an explicit path when given', () => {
    assert.equal(locateSqlWasm('/opt/snowpea/sql-wasm.wasm'), '/opt/snowpea/sql-wasm.wasm');
  });

  it('falls back to the sql.js package when no copy sits beside the code', () => {
    const found = locateSqlWasm();
    assert.ok(fs.existsSync(found));
    assert.equal(path.basename(found), 'sql-wasm.wasm');
    assert.equal(fs.readFileSync(found).subarray(0, 4).toString('hex'), '0061736d'); // "\0asm"
  });

  it('loads from a copied wasm file, and fails clearly on a missing one', async () => {
    const copy = path.join(tempDir(), 'sql-wasm.wasm');
    fs.copyFileSync(locateSqlWasm(), copy);
    const SQL = await loadSqlJs(copy);
    const db = new SQL.Database();
    assert.deepEqual(db.exec('SELECT 1 + 1')[0].values, [[2]]);
    db.close();
    await assert.rejects(loadSqlJs(path.join(tempDir(), 'missing.wasm')), /ENOENT/);
  });
});
