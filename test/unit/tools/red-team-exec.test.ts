/** Red-team L2, L3, L4: what shell, execute_code and other child processes run, see and leave behind. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applyApiKeyFlags, readKeyLine } from '../../../extension/cli/api-key';
import { connectServer } from '../../../extension/core/mcp/connect';
import { makeExecuteCodeTool } from '../../../extension/core/tools/core/execute-code';
import { clearSecretValues, registerSecretValue, scrubEnv } from '../../../extension/core/os/child-env';
import { outcomeResult } from '../../../extension/core/tools/exec/outcome-result';
import type { ProcessOutcome } from '../../../extension/core/tools/exec/run-process';
import { ToolRegistry } from '../../../extension/core/tools/registry';
import { call, eventually, makeCtx, tempDir, writeTree } from './helpers';

/** Pids of running (non-zombie) processes whose command line is exactly `sleep <n>`. */
function sleepers(n: number): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      if (cmd === `sleep ${n}` && stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z') out.push(Number(name));
    } catch {
      /* gone */
    }
  }
  return out;
}

/** Sets environment variables for one test and restores them after. */
async function withEnv(vars: Record<string, string>, fn: () => Promise<void>): Promise<void> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    clearSecretValues();
  }
}

describe('red team: exec tools (L2, L3, L4)', () => {
  // The interpreter behind python3 (a version-manager shim can be slow to start).
  let python: ToolRegistry;
  before(() => {
    const exe = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
    python = new ToolRegistry([makeExecuteCodeTool(exe)]);
  });

  it('L2: a repository sitecustomize.py and json.py never run when execute_code runs print(1+1); workspace modules still import', async () => {
    const ws = tempDir('snowpea-rt-py-');
    const marker = path.join(tempDir('snowpea-rt-mark-'), 'repo-code-ran');
    writeTree(ws, {
      'sitecustomize.py': `import pathlib\npathlib.Path(${JSON.stringify(marker)}).write_text("repo code ran")\n`,
      'usercustomize.py': `import pathlib\npathlib.Path(${JSON.stringify(marker)}).write_text("repo code ran")\n`,
      'json.py': `import pathlib\npathlib.Path(${JSON.stringify(marker)}).write_text("json.py ran")\nraise SystemExit("shadowed")\n`,
      'helper.py': 'def double(x):\n    return 2 * x\n',
    });
    const plain = await call(makeCtx(ws), 'execute_code', { code: 'print(1+1)' }, python);
    assert.equal(plain.content, '2\n[exit code 0]');
    const res = await call(makeCtx(ws), 'execute_code', { code: 'import json, helper\nprint(json.dumps([helper.double(21)]), json.__file__.endswith("json/__init__.py"))' }, python);
    assert.equal(res.content, '[42] True\n[exit code 0]');
    assert.equal(fs.existsSync(marker), false, `repository code ran: ${fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : ''}`);
  });

  it('L4: env in shell and os.environ in execute_code do not show OPENAI_API_KEY, other provider keys, a registered key, or a base URL password', async () => {
    await withEnv(
      { OPENAI_API_KEY: 'sk-ENVKEY-777', ANTHROPIC_API_KEY: 'sk-ant-888', MY_COPY_OF_KEY: 'sk-FROMFILE-123456', OPENAI_BASE_URL: 'https://me:pw-secret@llm.example/v1', KEEP_ME: 'visible' },
      async () => {
        registerSecretValue('sk-FROMFILE-123456');
        const sh = await call(makeCtx(tempDir()), 'shell', { command: 'env' });
        const py = await call(makeCtx(tempDir()), 'execute_code', { code: 'import os\nfor k, v in sorted(os.environ.items()): print(f"{k}={v}")' }, python);
        for (const out of [sh.content, py.content]) {
          assert.match(out, /^KEEP_ME=visible$/m, 'the ordinary environment is passed');
          assert.match(out, /^OPENAI_BASE_URL=https:\/\/llm\.example\/v1$/m);
          for (const secret of ['sk-ENVKEY-777', 'OPENAI_API_KEY', 'sk-ant-888', 'sk-FROMFILE-123456', 'pw-secret']) assert.ok(!out.includes(secret), `${secret} visible:\n${out}`);
        }
      },
    );
  });

  it('L4: an MCP stdio server starts without the provider keys of its base environment, but with the env its own config gives', async () => {
    const file = path.join(tempDir(), 'server-env.txt');
    const server = { transport: 'stdio' as const, command: 'sh', args: ['-c', `env > ${file}`], env: { FROM_CONFIG: 'yes' }, headers: {} };
    await assert.rejects(connectServer(server, { serverName: 'envdump', timeoutMs: 10_000, baseEnv: { ...process.env, OPENAI_API_KEY: 'sk-ENVKEY-777' } }));
    const env = fs.readFileSync(file, 'utf8');
    assert.match(env, /^FROM_CONFIG=yes$/m);
    assert.ok(!env.includes('sk-ENVKEY-777'), env);
  });

  it('L4: --api-key-file and --api-key - give the CLI a key that is not on the command line, and child processes never see it', () => {
    const dir = tempDir();
    const keyFile = path.join(dir, 'key');
    fs.writeFileSync(keyFile, 'sk-FILE-KEY-4242\n', { mode: 0o600 });
    const warnings: string[] = [];
    const flags: { 'api-key'?: string; 'api-key-file'?: string } = { 'api-key-file': keyFile };
    try {
      applyApiKeyFlags(flags, (m) => void warnings.push(m));
      assert.deepEqual(flags, { 'api-key': 'sk-FILE-KEY-4242' });
      assert.equal(warnings.length, 0, warnings.join('; '));
      assert.equal(scrubEnv({ SOME_VAR: 'sk-FILE-KEY-4242', OTHER: 'x' }).SOME_VAR, undefined, 'the key is registered as a secret');

      const stdinFlags = { 'api-key': '-' };
      applyApiKeyFlags(stdinFlags, () => {}, () => 'sk-STDIN-KEY-99');
      assert.equal(stdinFlags['api-key'], 'sk-STDIN-KEY-99');
      const lines = path.join(dir, 'stdin');
      fs.writeFileSync(lines, 'sk-LINE-1\r\nsecond line\n');
      const fd = fs.openSync(lines, 'r');
      assert.equal(readKeyLine(fd), 'sk-LINE-1', 'only the first line is the key');
      fs.closeSync(fd);

      applyApiKeyFlags({ 'api-key': 'sk-ON-ARGV-1' }, (m) => void warnings.push(m));
      assert.match(warnings[0], /--api-key KEY is visible to other processes/);
      assert.throws(() => applyApiKeyFlags({ 'api-key': 'k', 'api-key-file': keyFile }, () => {}), /either --api-key or --api-key-file, not both/);
      fs.writeFileSync(path.join(dir, 'empty'), '\n');
      assert.throws(() => applyApiKeyFlags({ 'api-key-file': path.join(dir, 'empty') }, () => {}), /is empty; put the key on its first line/);
      assert.throws(() => applyApiKeyFlags({ 'api-key-file': path.join(dir, 'missing') }, () => {}), /could not be read \(ENOENT\)/);
    } finally {
      clearSecretValues();
    }
  });

  it('L3, P20: the timeout kills every process the command started, setsid and orphaned ones included, and says so', async () => {
    const ids = [30171, 30172, 30173, 30174, 30175, 30176];
    // 30176 leaves the group and the session and drops the run marker (env -i): only the subreaper keeps it findable.
    const cmd =
      'sleep 30171 & (sleep 30172 &); setsid sleep 30173 & nohup sleep 30174 >/dev/null 2>&1 & (setsid sleep 30175 &); ' +
      'setsid -f env -i sleep 30176 >/dev/null 2>&1; echo started; sleep 100';
    const running = call(makeCtx(tempDir()), 'shell', { command: cmd, timeout_s: 2 });
    assert.ok(await eventually(() => ids.every((n) => sleepers(n).length === 1)), 'all six sleeps started');
    const res = await running;
    assert.equal(res.error?.code, 'timeout');
    assert.match(res.content, /timed out after 2s; it and every process it started were killed\./);
    for (const n of ids) assert.deepEqual(sleepers(n), [], `sleep ${n} survived`);
  });

  it('L3: without the subreaper (no perl, not Linux) the result claims only what could be found, which is the truth', async () => {
    await withEnv({ SNOWPEA_NO_SUBREAPER: '1' }, async () => {
      const res = await call(makeCtx(tempDir()), 'shell', { command: 'setsid -f env -i sleep 30177 >/dev/null 2>&1; sleep 100', timeout_s: 1 });
      assert.equal(res.error?.code, 'timeout');
      assert.match(res.content, /it and every process of it that could be found \(its group and descendants\) were killed/);
      const escaped = sleepers(30177);
      assert.equal(escaped.length, 1, 'the escaped sleep is what the wording warns about');
      for (const pid of escaped) process.kill(pid, 'SIGKILL');
    });
  });

  it('L3: under the subreaper a program that does not exist is still named as not found, and exit codes and signals pass through', async () => {
    const { runProcess } = await import('../../../extension/core/tools/exec/run-process');
    const dir = tempDir();
    const base = { cwd: dir, timeoutMs: 20_000, signal: new AbortController().signal, maxChars: 1000, scratchDir: dir, label: 't' };
    const missing = await runProcess({ ...base, command: 'no-such-program-30178', args: [] }, (p) => p);
    assert.equal(missing.reaped, true);
    assert.equal(missing.spawnError?.code, 'ENOENT');
    const code = await runProcess({ ...base, command: '/bin/sh', args: ['-c', 'echo out; echo err >&2; exit 7'] }, (p) => p);
    assert.equal(code.exitCode, 7);
    assert.match(code.output.text, /out/);
    assert.match(code.output.text, /err/);
    const sig = await runProcess({ ...base, command: '/bin/sh', args: ['-c', 'kill -TERM $$'] }, (p) => p);
    assert.equal(sig.exitSignal, 'SIGTERM');
    // SIGPIPE is the default again for the program (Python ignores it, and ignored signals survive exec).
    const pipe = await runProcess({ ...base, command: '/bin/sh', args: ['-c', 'yes | head -c 3 >/dev/null; echo "${PIPESTATUS:-done}"; grep SigIgn /proc/self/status'] }, (p) => p);
    const ign = /SigIgn:\s*([0-9a-f]+)/.exec(pipe.output.text)?.[1];
    assert.ok(ign !== undefined, pipe.output.text);
    assert.equal((BigInt(`0x${ign}`) >> 12n) & 1n, 0n, 'SIGPIPE (13) is not ignored');
  });

  it('L3, P20: when a process survives the kill, the result names it instead of claiming everything was killed', () => {
    const base: ProcessOutcome = {
      exitCode: null,
      exitSignal: 'SIGKILL',
      timedOut: true,
      cancelled: false,
      heldOpen: false,
      output: { text: '', totalChars: 0, truncated: false, saveCapped: false, peakRetainedChars: 0 },
    };
    const one = outcomeResult({ ...base, kill: { survivors: [4242], tracked: true } }, 'command', 2);
    assert.match(one.content, /timed out after 2s; it was killed, but 1 process it started \(pid 4242\) could not be killed and may still run\./);
    const cancelled = outcomeResult({ ...base, timedOut: false, cancelled: true, kill: { survivors: [7, 8], tracked: true } }, 'program', 2);
    assert.match(cancelled.content, /was cancelled; it was stopped, but 2 processes it started \(pid 7, 8\) could not be killed/);
  });
});
