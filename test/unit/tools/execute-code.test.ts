import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeExecuteCodeTool } from '../../../extension/core/tools/core/execute-code';
import { ToolRegistry } from '../../../extension/core/tools/registry';
import { execFileSync } from 'node:child_process';
import { call, eventually, makeCtx, processAlive, tempDir, writeTree } from './helpers';

describe('tools: execute_code', () => {
  const ws = tempDir();
  // The interpreter behind python3 (a version-manager shim can take seconds to start, which would eat a 1 s timeout).
  let direct: ToolRegistry;
  before(() => {
    const exe = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
    direct = new ToolRegistry([makeExecuteCodeTool(exe)]);
  });
  writeTree(ws, { 'helper.py': 'def double(x):\n    return 2 * x\n' });

  it('runs python3 in the workspace and leaves nothing behind', async () => {
    const before = fs.readdirSync(ws).sort();
    const code = 'import os, helper\nprint(__file__)\nprint(os.getcwd())\nprint(helper.double(21))';
    const res = await call(makeCtx(ws), 'execute_code', { code });
    assert.equal(res.ok, true, res.content);
    const [file, cwd, answer, exit] = res.content.split('\n');
    assert.equal(cwd, ws);
    assert.equal(answer, '42');
    assert.equal(exit, '[exit code 0]');
    assert.equal(fs.existsSync(file), false, 'the temporary program is gone');
    assert.equal(fs.existsSync(path.dirname(file)), false, 'its folder is gone');
    assert.deepEqual(fs.readdirSync(ws).sort(), before, 'no __pycache__ or script left in the workspace');
  });

  it('reports a failing program with its traceback and exit code', async () => {
    const res = await call(makeCtx(ws), 'execute_code', { code: 'raise ValueError("nope")' }, direct);
    assert.equal(res.ok, true);
    assert.match(res.content, /ValueError: nope/);
    assert.match(res.content, /\[exit code 1\]$/);
  });

  it('a clear error when python3 is missing', async () => {
    const reg = new ToolRegistry([makeExecuteCodeTool('/nonexistent/bin/python3')]);
    const res = await call(makeCtx(ws), 'execute_code', { code: 'print(1)' }, reg);
    assert.equal(res.error?.code, 'unavailable');
    assert.match(res.content, /\/nonexistent\/bin\/python3 was not found on PATH, so execute_code cannot run/);
  });

  it('a program that never ends is killed at the timeout, with the processes it started', async () => {
    const code = 'import subprocess, time\np = subprocess.Popen(["sleep", "300"])\nprint(p.pid, flush=True)\ntime.sleep(300)';
    const res = await call(makeCtx(ws), 'execute_code', { code, timeout_s: 1 }, direct);
    assert.equal(res.error?.code, 'timeout');
    const pid = Number(/Output before the timeout:\n(\d+)/.exec(res.content)?.[1]);
    assert.ok(pid > 0, res.content);
    assert.ok(await eventually(() => !processAlive(pid)), 'the sleep child is gone');
  });

  it('caps long output like shell', async () => {
    const res = await call(makeCtx(ws, { settings: { 'tools.outputMaxChars': 1000 } }), 'execute_code', { code: 'for i in range(5000): print(i)' }, direct);
    assert.match(res.content, /^0\n1\n/);
    assert.match(res.content, /\[… \d+ chars omitted; full output in [^\]]+\]/);
    assert.match(res.content, /4999\n\[exit code 0\]$/);
  });
});
