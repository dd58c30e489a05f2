import assert from 'node:assert/strict';
import { fuzzyScore } from '../../../extension/host/workspace/fuzzy';

describe('fuzzy file matching for @ mentions', () => {
  const rank = (paths: string[], q: string) =>
    paths
      .map((p) => ({ p, s: fuzzyScore(p, q) }))
      .filter((x) => x.s >= 0)
      .sort((a, b) => b.s - a.s)
      .map((x) => x.p);

  it('keeps only subsequence matches and ranks basename hits first', () => {
    const paths = ['src/agent/loop.ts', 'docs/looping.md', 'src/lib/pool.ts', 'test/loop.test.ts', 'README.md'];
    assert.deepEqual(rank(paths, 'loop'), ['src/agent/loop.ts', 'test/loop.test.ts', 'docs/looping.md']);
    assert.equal(fuzzyScore('README.md', 'loop'), -1);
  });

  it('matches scattered letters, consecutive runs score higher', () => {
    assert.ok(fuzzyScore('extension/core/agent/agent.ts', 'agt') > 0);
    assert.ok(fuzzyScore('src/agent.ts', 'agent') > fuzzyScore('src/a_g_e_n_t.ts', 'agent'));
    assert.equal(fuzzyScore('anything', ''), 0);
  });
});
