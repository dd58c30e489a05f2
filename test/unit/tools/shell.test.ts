import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runProcess } from '../../../extension/core/tools/exec/run-process';
import { call, eventually, makeCtx, processAlive, tempDir } from './helpers';

const NOTE = /\n\[… (\d+) chars omitted; full output in ([^\]]+)\]\n/;

describe('tools: shell', () => {
  const ws = tempDir();
  fs.mkdirSync(path.join(ws, 'sub'));

  it('runs bash in the workspace, merges stderr, streams output and reports the exit code', async () => {
    const ctx = makeCtx(ws);
    const res = await call(ctx, 'shell', { command: 'echo out; echo err >&2; pwd; exit 3' });
    assert.equal(res.ok, true);
    // stdout and stderr are separate pipes: their relative order is not fixed.
    assert.deepEqual(res.content.split('\n').sort(), ['[exit code 3]', 'err', 'out', ws].sort());
    assert.match(res.content, /\n\[exit code 3\]$/);
    assert.deepEqual(ctx.outputs.join('').split('\n').sort(), ['', 'err', 'out', ws].sort());
    assert.equal(ctx.asked[0].summary, 'run: echo out; echo err >&2; pwd; exit 3');
  });

  it('runs in cwd, refuses a missing cwd, and says when there was no output', async () => {
    assert.match((await call(makeCtx(ws), 'shell', { command: 'pwd' })).content, /sub|\//);
    assert.equal((await call(makeCtx(ws), 'shell', { command: 'pwd', cwd: 'sub' })).content, `${path.join(ws, 'sub')}\n[exit code 0]`);
    assert.equal((await call(makeCtx(ws), 'shell', { command: 'true' })).content, '(no output)\n[exit code 0]');
    const bad = await call(makeCtx(ws), 'shell', { command: 'pwd', cwd: 'missing' });
    assert.equal(bad.error?.code, 'not_found');
  });

  it('a command printing 50 MB: memory stays bounded, the model sees head and tail, the full output is in a file read_file can read', async () => {
    let streamed = 0;
    const ctx = makeCtx(ws, { settings: { 'tools.outputMaxChars': 10_000 }, extra: { onOutput: (c) => void (streamed += c.length) } });
    let peakHeap = 0;
    const base = process.memoryUsage().heapUsed;
    const sampler = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed - base)), 5);
    const cmd = 'echo FIRST; yes 0123456789abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLM | head -c 50000000; echo; echo LAST';
    const res = await call(ctx, 'shell', { command: cmd });
    clearInterval(sampler);
    assert.equal(res.ok, true);
    assert.ok(res.content.length < 10_000 + 300, `model sees ${res.content.length} chars`);
    assert.match(res.content, /^FIRST\n0123/);
    assert.match(res.content, /LAST\n\[exit code 0\]$/);
    const m = NOTE.exec(res.content);
    assert.ok(m, 'omission note present');
    const full = m![2];
    assert.equal(fs.statSync(full).size, 'FIRST\n'.length + 50_000_000 + '\nLAST\n'.length);
    assert.equal(Number(m![1]), fs.statSync(full).size - 10_000);
    assert.ok(full.startsWith(ctx.scratchDir), 'saved under the scratch folder');
    assert.equal(streamed, fs.statSync(full).size, 'everything was streamed to onOutput');
    assert.ok(peakHeap < 40 * 1024 * 1024, `heap grew by ${Math.round(peakHeap / 1048576)} MB for 50 MB of output`);
    const page = await call(ctx, 'read_file', { path: full, offset: 1, limit: 2 });
    assert.equal(page.ok, true);
    assert.match(page.content, /^ {4}1\tFIRST\n {4}2\t0123456789abcdef/);
    assert.equal(ctx.asked.length, 1, 'reading the saved output did not ask');
  });

  it('the capture keeps at most maxChars in memory and deletes the file when nothing was cut', async () => {
    const scratch = path.join(tempDir(), 'scratch');
    const big = await runProcess(
      { command: 'bash', args: ['-c', 'head -c 20000000 /dev/zero | tr "\\0" x'], cwd: ws, timeoutMs: 60_000, signal: new AbortController().signal, maxChars: 5000, scratchDir: scratch, label: 't' },
      (p) => p,
    );
    assert.equal(big.output.totalChars, 20_000_000);
    assert.ok(big.output.peakRetainedChars <= 5000, `retained ${big.output.peakRetainedChars}`);
    assert.equal(big.output.truncated, true);
    const small = await runProcess(
      { command: 'bash', args: ['-c', 'echo hi'], cwd: ws, timeoutMs: 60_000, signal: new AbortController().signal, maxChars: 5000, scratchDir: scratch, label: 't' },
      (p) => p,
    );
    assert.equal(small.output.text, 'hi\n');
    assert.deepEqual(fs.readdirSync(scratch), [path.basename(big.output.fullPath!)]);
  });

  it('a command that never ends: the timeout kills the whole tree, grandchildren included (even one ignoring SIGTERM)', async () => {
    const cmd = "sleep 300 & echo $! > gc1.pid; (trap '' TERM; exec sleep 301) & echo $! > gc2.pid; echo started; wait";
    const res = await call(makeCtx(ws), 'shell', { command: cmd, timeout_s: 1 });
    assert.equal(res.error?.code, 'timeout');
    assert.match(res.content, /timed out after 1s; it and every process it started were killed/);
    assert.match(res.content, /started/);
    for (const f of ['gc1.pid', 'gc2.pid']) {
      const pid = Number(fs.readFileSync(path.join(ws, f), 'utf8'));
      assert.ok(await eventually(() => !processAlive(pid)), `grandchild ${pid} from ${f} still alive`);
    }
  });

  it('cancellation through the AbortSignal kills the tree and returns cancelled', async () => {
    const ctx = makeCtx(ws);
    const pidFile = path.join(ws, 'cancel.pid');
    const p = call(ctx, 'shell', { command: `sleep 300 & echo $! > ${pidFile}; wait` });
    assert.ok(await eventually(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim() !== ''));
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    ctx.controller.abort();
    const res = await p;
    assert.equal(res.error?.code, 'cancelled');
    assert.ok(await eventually(() => !processAlive(pid)), 'grandchild gone');
  });

  it('a background process holding the output does not hang the call', async () => {
    const pidFile = path.join(ws, 'bg.pid');
    const res = await call(makeCtx(ws), 'shell', { command: `sleep 60 & echo $! > ${pidFile}; echo now` });
    try {
      assert.equal(res.ok, true);
      assert.match(res.content, /^now\n\[a background process it started still holds the output/);
      assert.match(res.content, /\[exit code 0\]$/);
    } finally {
      process.kill(Number(fs.readFileSync(pidFile, 'utf8')), 'SIGKILL');
    }
  });
});
