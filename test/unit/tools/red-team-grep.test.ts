import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeGrepTool } from '../../../extension/core/tools/core/grep';
import { ToolRegistry } from '../../../extension/core/tools/registry';
import { GREP_WORKER_BUNDLE, locateGrepWorker, makeJsGrepBackend } from '../../../extension/core/tools/search/grep-js';
import { findRipgrep, packagedRipgrep, setBundledRipgrep } from '../../../extension/core/tools/search/grep-rg';
import { findVsCodeRipgrep, ripgrepCandidates, useVsCodeRipgrep } from '../../../extension/host/workspace/ripgrep';
import { call, makeCtx, tempDir, writeTree } from './helpers';

const SEARCH_DIR = path.resolve(__dirname, '../../../extension/core/tools/search');
/** The report's ReDoS line: 32 `a` then `!`, against `(a+)+$` (about 2^32 backtracking steps). */
const REDOS_LINE = 'a'.repeat(32) + '!';

/** Counts main-thread timer ticks while `work` runs: a blocked thread gets none. */
async function ticksDuring<T>(work: Promise<T>): Promise<{ value: T; ticks: number }> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 20);
  try {
    return { value: await work, ticks };
  } finally {
    clearInterval(timer);
  }
}

describe('red team M4: grep without ripgrep is bounded', function () {
  this.timeout(60_000);

  it('R6: grep "(a+)+$" on a line of 32 a + "!" stops at its deadline with a clear message, and the caller stays responsive', async () => {
    const ws = tempDir();
    writeTree(ws, { 'src/ok.txt': 'aaa\n', 'src/redos.txt': `${REDOS_LINE}\n` });
    const reg = new ToolRegistry([makeGrepTool({ ripgrep: null, js: { timeoutMs: 1500 } })]);
    const { value: res, ticks } = await ticksDuring(call(makeCtx(ws), 'grep', { pattern: '(a+)+$' }, reg));
    assert.equal(res.error?.code, 'timeout');
    assert.equal(
      res.content,
      'error (timeout): the search took longer than 1.5 s and was stopped while searching src/redos.txt (1 file searched before it). ' +
        'A pattern with nested repetition such as (a+)+ can take exponential time on some lines: simplify it, or narrow path or glob.\n' +
        'Matches found before it stopped (partial):\nsrc/ok.txt:1:aaa',
    );
    const alone = await call(makeCtx(ws), 'grep', { pattern: '(a+)+$', path: 'src/redos.txt' }, reg);
    assert.match(alone.content, /^error \(timeout\): the search took longer than 1\.5 s and was stopped while searching src\/redos\.txt \(0 files searched before it\)\. .*\nNo matches for \/\(a\+\)\+\$\/ in src\/redos\.txt before it stopped\.$/);
    assert.ok(ticks > 5, `the main thread kept running timers during the search (${ticks} ticks)`);
    const after = await call(makeCtx(ws), 'grep', { pattern: 'a{3}' }, reg);
    assert.equal(after.content, 'src/ok.txt:1:aaa\nsrc/redos.txt:1:' + REDOS_LINE, 'the next search runs normally');
  });

  it('P5: the reliability report\'s (a|aa)+$ on a 40,000-char line ends at the deadline; Stop (abort) during it returns at once', async () => {
    const ws = tempDir();
    writeTree(ws, { 'evil.txt': `${'a'.repeat(40_000)}!\n` });
    const reg = new ToolRegistry([makeGrepTool({ ripgrep: null, js: { timeoutMs: 1000 } })]);
    const { value: res, ticks } = await ticksDuring(call(makeCtx(ws), 'grep', { pattern: '(a|aa)+$' }, reg));
    assert.equal(res.error?.code, 'timeout');
    assert.ok(ticks > 3, `the event loop kept turning (${ticks} ticks)`);
    const ctx = makeCtx(ws);
    const running = call(ctx, 'grep', { pattern: '(a|aa)+$' }, new ToolRegistry([makeGrepTool({ ripgrep: null, js: { timeoutMs: 60_000 } })]));
    setTimeout(() => ctx.controller.abort(), 200);
    assert.equal((await running).error?.code, 'cancelled');
  });

  it('R6: cancelling a runaway search ends it at once (the worker is stopped), with what was searched so far', async () => {
    const ws = tempDir();
    writeTree(ws, { 'redos.txt': `${REDOS_LINE}\n` });
    const ac = new AbortController();
    const abortOn = (file: string) => file === 'redos.txt' && setImmediate(() => ac.abort());
    const out = await makeJsGrepBackend({ onFile: abortOn })({ root: ws, base: ws, pattern: '(a+)+$', ignoreCase: false, maxResults: 10, signal: ac.signal });
    assert.ok(out.ok);
    assert.deepEqual(out.stopped, { reason: 'cancelled', message: 'the search was cancelled while searching redos.txt (0 files searched before it)' });
  });

  it('R7: a 1.9 GB sparse file in the workspace is skipped without being read, and the result says so', async () => {
    const ws = tempDir();
    writeTree(ws, { 'a.txt': 'needle here\n', 'z.txt': 'needle there\n' });
    fs.closeSync(fs.openSync(path.join(ws, 'huge.log'), 'w'));
    fs.truncateSync(path.join(ws, 'huge.log'), 1900 * 1024 * 1024);
    const res = await call(makeCtx(ws), 'grep', { pattern: 'needle' }, new ToolRegistry([makeGrepTool({ ripgrep: null })]));
    assert.equal(res.ok, true);
    assert.equal(res.content, 'a.txt:1:needle here\nz.txt:1:needle there\n[not searched: 1 file larger than 10 MB: huge.log]');
    const none = await call(makeCtx(ws), 'grep', { pattern: 'zebra' }, new ToolRegistry([makeGrepTool({ ripgrep: null })]));
    assert.equal(none.content, 'no matches for /zebra/ in .\n[not searched: 1 file larger than 10 MB: huge.log]');
  });

  it('R7: a file that is over the limit is counted, one under it is searched (limit set low)', async () => {
    const ws = tempDir();
    writeTree(ws, { 'big.txt': `needle ${'x'.repeat(200)}\n`, 'small.txt': 'needle\n' });
    const out = await makeJsGrepBackend({ maxFileBytes: 100 })({ root: ws, base: ws, pattern: 'needle', ignoreCase: false, maxResults: 10, signal: new AbortController().signal });
    assert.ok(out.ok);
    assert.deepEqual(out.matches, [{ file: 'small.txt', line: 1, text: 'needle' }]);
    assert.deepEqual(out.skippedLarge, { count: 1, examples: ['big.txt'], limitBytes: 100 });
  });

  it('M4: the bundled worker (dist/grep-worker.js, CommonJS) is found beside the bundle and gives the same answer', async () => {
    const esbuild = await import('esbuild');
    const out = path.join(tempDir(), 'dist');
    await esbuild.build({ entryPoints: { 'grep-worker': path.join(SEARCH_DIR, 'grep-worker.ts') }, outdir: out, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'silent' });
    assert.equal(locateGrepWorker(out), path.join(out, GREP_WORKER_BUNDLE));
    assert.equal(locateGrepWorker(SEARCH_DIR), path.join(SEARCH_DIR, 'grep-worker.ts'), 'from source, the .ts runs through tsx');
    assert.throws(() => locateGrepWorker(path.join(out, 'nowhere')), /grep's search worker is missing: looked for .*grep-worker\.js and .*grep-worker\.ts/);
    const ws = tempDir();
    writeTree(ws, { '.gitignore': 'skip.txt\n', 'a.txt': 'one\ntwo needle\n', 'skip.txt': 'needle\n' });
    const q = { root: ws, base: ws, pattern: 'needle', ignoreCase: false, maxResults: 10, signal: new AbortController().signal };
    const bundled = await makeJsGrepBackend({ workerFile: locateGrepWorker(out) })(q);
    assert.deepEqual(bundled, await makeJsGrepBackend()(q));
    assert.deepEqual(bundled, { ok: true, matches: [{ file: 'a.txt', line: 2, text: 'two needle' }], total: 1 });
  });

  it('M4: VS Code\'s ripgrep (under appRoot, unpacked or not) is used when rg is not on PATH; rg on PATH still wins', async () => {
    const appRoot = tempDir('snowpea-app-');
    assert.deepEqual(ripgrepCandidates('/app', 'win32').map((p) => p.split(path.sep).join('/')), [
      '/app/node_modules.asar.unpacked/@vscode/ripgrep/bin/rg.exe',
      '/app/node_modules/@vscode/ripgrep/bin/rg.exe',
    ]);
    assert.equal(findVsCodeRipgrep(appRoot), null);
    const bundledRg = path.join(appRoot, 'node_modules.asar.unpacked', '@vscode', 'ripgrep', 'bin', 'rg');
    writeTree(appRoot, { 'node_modules.asar.unpacked/@vscode/ripgrep/bin/rg': '#!/bin/sh\nprintf "from-vscode-rg.txt\\0001:bundled\\n"\n' });
    fs.chmodSync(bundledRg, 0o755);
    const pathBin = tempDir('snowpea-bin-');
    fs.writeFileSync(path.join(pathBin, 'rg'), '#!/bin/sh\nprintf "from-path-rg.txt\\0001:path\\n"\n', { mode: 0o755 });
    const ws = tempDir();
    writeTree(ws, { 'b.txt': 'beta\n' });
    const grep = () => new ToolRegistry([makeGrepTool()]);
    const saved = process.env.PATH;
    try {
      process.env.PATH = path.join(pathBin, 'none');
      findRipgrep(true);
      assert.equal(useVsCodeRipgrep(appRoot), bundledRg);
      assert.equal((await call(makeCtx(ws), 'grep', { pattern: 'beta' }, grep())).content, 'from-vscode-rg.txt:1:bundled');
      process.env.PATH = pathBin;
      findRipgrep(true);
      assert.equal((await call(makeCtx(ws), 'grep', { pattern: 'beta' }, grep())).content, 'from-path-rg.txt:1:path');
      process.env.PATH = path.join(pathBin, 'none');
      findRipgrep(true);
      assert.equal(useVsCodeRipgrep(tempDir('snowpea-empty-app-')), null);
      assert.equal((await call(makeCtx(ws), 'grep', { pattern: 'beta' }, grep())).content, 'b.txt:1:beta', 'neither: the JS fallback');
    } finally {
      process.env.PATH = saved;
      setBundledRipgrep(null);
      findRipgrep(true);
    }
  });

  it('M4: the CLI finds rg in an installed @vscode/ripgrep-<platform>-<arch> package (the binary ships in its npm tarball)', () => {
    const dir = tempDir('snowpea-npm-');
    assert.equal(packagedRipgrep('linux', 'x64', [dir]), null, 'not installed: none');
    writeTree(dir, { 'node_modules/@vscode/ripgrep-linux-x64/package.json': '{"name":"@vscode/ripgrep-linux-x64","version":"1.18.0"}', 'node_modules/@vscode/ripgrep-linux-x64/bin/rg': '#!/bin/sh\n' });
    const rg = path.join(dir, 'node_modules', '@vscode', 'ripgrep-linux-x64', 'bin', 'rg');
    fs.chmodSync(rg, 0o644);
    assert.equal(packagedRipgrep('linux', 'x64', [dir]), null, 'not executable: not used');
    fs.chmodSync(rg, 0o755);
    assert.equal(packagedRipgrep('linux', 'x64', [dir]), rg);
    assert.equal(packagedRipgrep('darwin', 'arm64', [dir]), null, 'another platform\'s package is not looked for');
  });

  it('M4: the JS search loop runs only in the worker (nothing else imports grep-scan at run time)', () => {
    const users = fs
      .readdirSync(SEARCH_DIR)
      .filter((f) => f.endsWith('.ts') && /^import (?!type )[^;]*from '\.\/grep-scan'/m.test(fs.readFileSync(path.join(SEARCH_DIR, f), 'utf8')));
    assert.deepEqual(users, ['grep-worker.ts']);
  });
});
