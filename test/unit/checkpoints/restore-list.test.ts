import assert from 'node:assert/strict';
import { restoreListing, type FileChange } from '../../../extension/core/checkpoints';

describe('the restore confirmation lists deletions first and in full (red team N6)', () => {
  it('N6 (VS Code dialog): 60 files rewritten and a deleted .env: the deletion is named first, never in "and N more"', () => {
    const rewritten: FileChange[] = Array.from({ length: 60 }, (_, i) => ({ path: `src/f${String(i).padStart(2, '0')}.ts`, status: 'modified' }));
    const lines = restoreListing({ changes: [...rewritten, { path: '.env', status: 'added' }, { path: 'gone.txt', status: 'deleted' }], leftAlone: ['data/app.sqlite'] }, 40);
    assert.deepEqual(lines.slice(0, 3), ['Deleted (created since): 1', '  .env', 'Put back: 61']);
    assert.ok(lines.includes('  gone.txt (deleted since: recreated)'));
    assert.ok(lines.includes('  and 21 more'));
    assert.deepEqual(lines.slice(-2), ['Left alone (no checkpoint held them): 1', '  data/app.sqlite']);
  });

  it('N6: every deletion is named however many there are', () => {
    const removed: FileChange[] = Array.from({ length: 100 }, (_, i) => ({ path: `new/${i}.txt`, status: 'added' }));
    const lines = restoreListing({ changes: removed, leftAlone: [] }, 40);
    assert.equal(lines.filter((l) => l.startsWith('  new/')).length, 100);
    assert.ok(!lines.some((l) => /more/.test(l)));
  });
});
