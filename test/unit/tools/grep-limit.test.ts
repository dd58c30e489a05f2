import assert from 'node:assert/strict';
import { makeGrepTool } from '../../../extension/core/tools/core/grep';
import { ToolRegistry } from '../../../extension/core/tools/registry';
import { makeJsGrepBackend } from '../../../extension/core/tools/search/grep-js';
import { call, makeCtx, tempDir, writeTree } from './helpers';

/** 400 files in 20 folders, each with two matching lines. */
function everyFileMatches(): string {
  const ws = tempDir();
  const files: Record<string, string> = {};
  for (let i = 0; i < 400; i++) files[`src/d${i % 20}/f${i}.txt`] = `alpha ${i}\nbeta\nalpha again\n`;
  writeTree(ws, files);
  return ws;
}

describe('grep JS fallback: max_results bounds the scan', function () {
  this.timeout(60_000);

  it('P23: on a tree where every file matches, the tool says "more than N" and shows the first N', async () => {
    const ws = everyFileMatches();
    const res = await call(makeCtx(ws), 'grep', { pattern: 'alpha', max_results: 10 }, new ToolRegistry([makeGrepTool({ ripgrep: null })]));
    assert.equal(res.ok, true, res.content);
    const rows = res.content.split('\n');
    assert.equal(rows.filter((r) => /^src\/d\d+\/f\d+\.txt:\d+:alpha/.test(r)).length, 10);
    assert.equal(rows.at(-1), '[… more than 10 matches in all (the first 10 shown); the search stopped there; narrow the pattern, path or glob, or raise max_results]');
  });

  it('P23: the worker stops after max_results + 1 matches: 6 of 400 files searched', async () => {
    const ws = everyFileMatches();
    const out = await makeJsGrepBackend()({ root: ws, base: ws, pattern: 'alpha', ignoreCase: false, maxResults: 10, signal: new AbortController().signal });
    assert.ok(out.ok);
    assert.equal(out.matches.length, 10);
    assert.equal(out.total, 11);
    // Two matches per file: the 11th is the first line of the 6th file, where the scan stopped.
    assert.deepEqual(out.limitReached, { searched: 6 });
    assert.equal(out.stopped, undefined);
  });

  it('P23: up to the limit the count stays exact', async () => {
    const ws = tempDir();
    writeTree(ws, { 'a.txt': 'alpha\nalpha\n', 'b.txt': 'alpha\n' });
    const out = await makeJsGrepBackend()({ root: ws, base: ws, pattern: 'alpha', ignoreCase: false, maxResults: 3, signal: new AbortController().signal });
    assert.ok(out.ok);
    assert.equal(out.total, 3);
    assert.equal(out.limitReached, undefined);
  });
});
