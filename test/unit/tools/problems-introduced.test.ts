import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatIntroduced, introducedProblems, MAX_PROBLEM_LINES, type Problem, type ProblemWatch } from '../../../extension/core/tools/problems-introduced';
import type { ToolContext } from '../../../extension/core/tools/types';
import { call, makeCtx, tempDir } from './helpers';

const err = (line: number, message: string, extra: Partial<Problem> = {}): Problem => ({ line, severity: 'error', source: 'ts', code: '2304', message, ...extra });
const warn = (line: number, message: string): Problem => ({ line, severity: 'warning', source: 'eslint', code: 'no-unused-vars', message });

describe('issue 19 problems introduced: comparing diagnostics before and after an edit', () => {
  it('a problem that only moved (lines shifted by the edit) is not new; one that appeared is', () => {
    const before = [err(10, "Cannot find name 'a'."), err(20, "Cannot find name 'b'.")];
    const after = [err(15, "Cannot find name 'a'."), err(3, "Cannot find name 'x'."), err(25, "Cannot find name 'b'.")];
    assert.deepEqual(introducedProblems(before, after, 'errors'), [err(3, "Cannot find name 'x'.")]);
  });

  it('a second copy of an old problem is new, and the copy nearest the old line counts as the old one', () => {
    const before = [err(50, "Cannot find name 'a'.")];
    const after = [err(12, "Cannot find name 'a'."), err(60, "Cannot find name 'a'.")];
    assert.deepEqual(introducedProblems(before, after, 'errors'), [err(12, "Cannot find name 'a'.")]);
  });

  it('the same message from another source, code or severity is a different problem', () => {
    const before = [err(1, 'Expected comma.', { source: 'json', code: '514' })];
    const after = [err(1, 'Expected comma.', { source: 'json', code: '515' }), err(1, 'Expected comma.', { source: 'json', code: '514' })];
    assert.deepEqual(introducedProblems(before, after, 'errors'), [err(1, 'Expected comma.', { source: 'json', code: '515' })]);
  });

  it('warnings count only with "errors+warnings"; information and hints never; "off" reports nothing', () => {
    const after = [warn(4, "'x' is defined but never used."), err(7, 'Type error.'), { ...err(8, 'Did you mean?'), severity: 'hint' as const }, { ...err(9, 'FYI'), severity: 'information' as const }];
    assert.deepEqual(introducedProblems([], after, 'errors'), [err(7, 'Type error.')]);
    assert.deepEqual(introducedProblems([], after, 'errors+warnings'), [warn(4, "'x' is defined but never used."), err(7, 'Type error.')]);
    assert.deepEqual(introducedProblems([], after, 'off'), []);
  });

  it('formats each problem with its line, severity, source and code, and one line per message', () => {
    const text = formatIntroduced('src/a.ts', [err(3, "Type 'string' is not assignable\n  to type 'number'.")]);
    assert.equal(text, "\n\nThis edit introduced a problem in src/a.ts (VS Code diagnostics):\nline 3: error [ts 2304] Type 'string' is not assignable to type 'number'.");
    assert.equal(formatIntroduced('src/a.ts', []), '', 'nothing new: nothing appended');
  });

  it(`lists at most ${MAX_PROBLEM_LINES} problems and counts the rest`, () => {
    const many = Array.from({ length: 27 }, (_, i) => err(i + 1, `Problem ${i + 1}.`));
    const lines = formatIntroduced('a.ts', many).trim().split('\n');
    assert.equal(lines[0], 'This edit introduced 27 problems in a.ts (VS Code diagnostics):');
    assert.equal(lines.filter((l) => l.startsWith('line ')).length, MAX_PROBLEM_LINES);
    assert.equal(lines.at(-2), 'line 20: error [ts 2304] Problem 20.');
    assert.equal(lines.at(-1), '[… 7 more not shown]');
  });
});

/** A host watch that reports `before`, then `after` once the write happened; records what it saw. */
function fakeWatch(before: Problem[], after: Problem[], log: string[]): ToolContext['watchProblems'] {
  return async (absPath) => {
    log.push(`watch ${path.basename(absPath)}`);
    const watch: ProblemWatch = {
      before,
      async after() {
        log.push(`after ${fs.readFileSync(absPath, 'utf8')}`);
        return after;
      },
      dispose: () => void log.push('dispose'),
    };
    return watch;
  };
}

describe('issue 19 problems introduced: write_file and edit_file append them', () => {
  const ws = tempDir();

  it('edit_file appends the errors the edit introduced, read after the write, and disposes the watch', async () => {
    fs.writeFileSync(path.join(ws, 'a.json'), '{"a": 1}\n');
    const log: string[] = [];
    const watchProblems = fakeWatch([warn(1, 'old')], [warn(1, 'old'), err(1, 'Expected comma.', { source: 'json', code: '514' })], log);
    const res = await call(makeCtx(ws, { extra: { watchProblems } }), 'edit_file', { path: 'a.json', old_string: '1}', new_string: '1 "b": 2}' });
    assert.equal(res.ok, true);
    assert.match(res.content, /^edited a\.json/);
    assert.match(res.content, /This edit introduced a problem in a\.json \(VS Code diagnostics\):\nline 1: error \[json 514\] Expected comma\.$/);
    assert.deepEqual(log, ['watch a.json', 'after {"a": 1 "b": 2}\n', 'dispose']);
  });

  it('write_file with errors+warnings also lists new warnings; with nothing new it appends nothing', async () => {
    const log: string[] = [];
    const settings = { 'tools.diagnosticsAfterEdit': 'errors+warnings' as const };
    const warned = await call(makeCtx(ws, { settings, extra: { watchProblems: fakeWatch([], [warn(2, 'unused')], log) } }), 'write_file', { path: 'b.ts', content: 'x\ny\n' });
    assert.match(warned.content, /line 2: warning \[eslint no-unused-vars\] unused$/);
    const clean = await call(makeCtx(ws, { extra: { watchProblems: fakeWatch([], [warn(2, 'unused')], log) } }), 'write_file', { path: 'b.ts', content: 'x\n' });
    assert.equal(clean.content, 'overwrote b.ts (2 lines → 1 line)', 'errors only: the warning is left out');
  });

  it('"off" never asks the host to watch (no wait)', async () => {
    const log: string[] = [];
    const ctx = makeCtx(ws, { settings: { 'tools.diagnosticsAfterEdit': 'off' }, extra: { watchProblems: fakeWatch([], [err(1, 'bad')], log) } });
    const res = await call(ctx, 'write_file', { path: 'c.ts', content: 'x\n' });
    assert.equal(res.content, 'created c.ts (1 line)');
    assert.deepEqual(log, []);
  });

  it('a failed write still disposes the watch and reports the failure', async () => {
    const log: string[] = [];
    const fileWriter = { write: async () => { throw new Error('disk full'); } };
    const ctx = makeCtx(ws, { extra: { watchProblems: fakeWatch([], [err(1, 'bad')], log), fileWriter } });
    const res = await call(ctx, 'write_file', { path: 'd.ts', content: 'x\n' });
    assert.equal(res.ok, false);
    assert.match(res.content, /disk full/);
    assert.deepEqual(log, ['watch d.ts', 'dispose']);
  });
});
