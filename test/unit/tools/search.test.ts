import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeGrepTool } from '../../../extension/core/tools/core/grep';
import { ToolRegistry } from '../../../extension/core/tools/registry';
import { findRipgrep } from '../../../extension/core/tools/search/grep-rg';
import { call, makeCtx, tempDir, writeTree } from './helpers';

function fixture(): string {
  const ws = tempDir();
  writeTree(ws, {
    '.gitignore': 'node_modules/\n*.log\nbuild/\n!keep.log\n',
    'src/a.ts': 'const alpha = 1;\nexport function Alpha() {}\n',
    'src/b.js': 'alpha beta\n',
    'src/nested/.gitignore': 'secret.ts\n',
    'src/nested/secret.ts': 'alpha hidden by the nested ignore\n',
    'src/nested/ok.ts': 'ALPHA upper\n',
    'node_modules/pkg/index.js': 'alpha in deps\n',
    'debug.log': 'alpha log\n',
    'keep.log': 'alpha kept\n',
    'build/out.js': 'alpha build\n',
    '.github/workflows/ci.yml': 'name: alpha\n',
    '.git/config': 'alpha git internals\n',
    'bin.dat': new Uint8Array([0x61, 0x6c, 0x70, 0x68, 0x61, 0, 1, 2]),
    'crlf.txt': 'alpha crlf\r\nomega\r\n',
    'many.txt': Array.from({ length: 300 }, (_, i) => `alpha ${i + 1}`).join('\n') + '\n',
  });
  return ws;
}

const jsGrep = () => new ToolRegistry([makeGrepTool({ ripgrep: null })]);

const queries: Array<Record<string, unknown>> = [
  { pattern: 'alpha' },
  { pattern: 'alpha', ignore_case: true, max_results: 1000 },
  { pattern: 'alpha', glob: '*.ts', ignore_case: true },
  { pattern: 'alpha', glob: 'src/**/*.ts', ignore_case: true },
  { pattern: 'alpha', glob: '!*.txt' },
  { pattern: 'alpha|beta', path: 'src' },
  { pattern: 'Alpha\\(', path: 'src/a.ts' },
  { pattern: 'alpha \\d+0$', path: 'many.txt', max_results: 5 },
  { pattern: 'crlf$' },
  { pattern: 'zebra' },
];

describe('tools: grep', () => {
  const ws = fixture();

  it('JS fallback: honours .gitignore (nested, negated), skips .git, binary files and ignored folders, keeps hidden folders', async () => {
    const res = await call(makeCtx(ws), 'grep', { pattern: 'alpha', max_results: 1000 }, jsGrep());
    const files = new Set(res.content.split('\n').map((l) => l.split(':')[0]));
    for (const f of ['.github/workflows/ci.yml', 'crlf.txt', 'keep.log', 'many.txt', 'src/a.ts', 'src/b.js']) assert.ok(files.has(f), f);
    for (const f of ['node_modules/pkg/index.js', 'debug.log', 'build/out.js', '.git/config', 'src/nested/secret.ts', 'bin.dat', 'src/nested/ok.ts']) assert.ok(!files.has(f), f);
    assert.match(res.content, /^\.github\/workflows\/ci\.yml:1:name: alpha\ncrlf\.txt:1:alpha crlf\nkeep\.log:1:alpha kept\nmany\.txt:1:alpha 1\n/);
    assert.match(res.content, /\nsrc\/a\.ts:1:const alpha = 1;\nsrc\/b\.js:1:alpha beta$/);
  });

  it('caps results with a count of what was left out', async () => {
    const res = await call(makeCtx(ws), 'grep', { pattern: 'alpha' }, jsGrep());
    const lines = res.content.split('\n');
    assert.equal(lines.length, 101);
    assert.equal(lines[100], '[… more than 100 matches in all (the first 100 shown); the search stopped there; narrow the pattern, path or glob, or raise max_results]');
    const five = await call(makeCtx(ws), 'grep', { pattern: 'alpha \\d+0$', path: 'many.txt', max_results: 5 }, jsGrep());
    assert.equal(five.content, 'many.txt:10:alpha 10\nmany.txt:20:alpha 20\nmany.txt:30:alpha 30\nmany.txt:40:alpha 40\nmany.txt:50:alpha 50\n[… more than 5 matches in all (the first 5 shown); the search stopped there; narrow the pattern, path or glob, or raise max_results]');
  });

  it('ignore_case, glob and path narrow the search', async () => {
    const ts = await call(makeCtx(ws), 'grep', { pattern: 'alpha', glob: '*.ts', ignore_case: true }, jsGrep());
    assert.equal(ts.content, 'src/a.ts:1:const alpha = 1;\nsrc/a.ts:2:export function Alpha() {}\nsrc/nested/ok.ts:1:ALPHA upper');
    const one = await call(makeCtx(ws), 'grep', { pattern: 'Alpha\\(', path: 'src/a.ts' }, jsGrep());
    assert.equal(one.content, 'src/a.ts:2:export function Alpha() {}');
  });

  it('no matches, a bad pattern and a missing path say so', async () => {
    assert.equal((await call(makeCtx(ws), 'grep', { pattern: 'zebra' }, jsGrep())).content, 'no matches for /zebra/ in .');
    const bad = await call(makeCtx(ws), 'grep', { pattern: '(' }, jsGrep());
    assert.equal(bad.error?.code, 'invalid_arguments');
    assert.match(bad.content, /not a valid regular expression/);
    assert.equal((await call(makeCtx(ws), 'grep', { pattern: 'a', path: 'nope' }, jsGrep())).error?.code, 'not_found');
  });

  it('chooses ripgrep when it is on PATH, the JS fallback otherwise', async () => {
    const bin = tempDir('snowpea-bin-');
    fs.writeFileSync(path.join(bin, 'rg'), '#!/bin/sh\nprintf "from-fake-rg.txt\\0001:fake\\n"\n', { mode: 0o755 });
    const saved = process.env.PATH;
    const defaultGrep = () => new ToolRegistry([makeGrepTool()]);
    try {
      process.env.PATH = bin;
      findRipgrep(true);
      assert.equal((await call(makeCtx(ws), 'grep', { pattern: 'beta' }, defaultGrep())).content, 'from-fake-rg.txt:1:fake');
      process.env.PATH = path.join(bin, 'none');
      findRipgrep(true);
      assert.equal((await call(makeCtx(ws), 'grep', { pattern: 'beta' }, defaultGrep())).content, 'src/b.js:1:alpha beta');
    } finally {
      process.env.PATH = saved;
      findRipgrep(true);
    }
  });

  const rg = findRipgrep();
  // ripgrep is optional on user machines; where it is installed (as on CI), both backends must agree.
  if (rg) {
    describe('ripgrep and the JS fallback agree', () => {
      const rgGrep = () => new ToolRegistry([makeGrepTool({ ripgrep: rg })]);
      for (const q of queries) {
        it(JSON.stringify(q), async () => {
          const a = await call(makeCtx(ws), 'grep', q, rgGrep());
          const b = await call(makeCtx(ws), 'grep', q, jsGrep());
          assert.equal(a.content, b.content);
          assert.equal(a.ok, b.ok);
        });
      }
      it('both refuse an invalid pattern', async () => {
        const a = await call(makeCtx(ws), 'grep', { pattern: '(' }, rgGrep());
        assert.equal(a.error?.code, 'invalid_arguments');
      });
    });
  }
});

describe('tools: glob', () => {
  const ws = fixture();

  it('matches relative to path, honours .gitignore, sorted', async () => {
    assert.equal((await call(makeCtx(ws), 'glob', { pattern: '**/*.ts' })).content, 'src/a.ts\nsrc/nested/ok.ts');
    assert.equal((await call(makeCtx(ws), 'glob', { pattern: '*.log' })).content, 'keep.log');
    assert.equal((await call(makeCtx(ws), 'glob', { pattern: '*.{ts,js}', path: 'src' })).content, 'src/a.ts\nsrc/b.js');
    assert.equal((await call(makeCtx(ws), 'glob', { pattern: '**/*.yml' })).content, '.github/workflows/ci.yml');
    assert.equal((await call(makeCtx(ws), 'glob', { pattern: 'src/**' })).content, 'src/a.ts\nsrc/b.js\nsrc/nested/.gitignore\nsrc/nested/ok.ts');
  });

  it('refuses patterns that climb out of path', async () => {
    for (const pattern of ['../*', 'src/../../*', '/etc/*']) {
      const res = await call(makeCtx(ws), 'glob', { pattern });
      assert.equal(res.error?.code, 'invalid_arguments', pattern);
      assert.match(res.content, /pass it as path/);
    }
  });

  it('says when nothing matches, and caps large results with a count', async () => {
    assert.equal((await call(makeCtx(ws), 'glob', { pattern: '**/*.rs' })).content, 'no files match **/*.rs in .');
    assert.equal((await call(makeCtx(ws), 'glob', { pattern: 'lib/**' })).content, 'no files match lib/** in .');
    const big = tempDir();
    for (let i = 0; i < 520; i++) writeTree(big, { [`f/${String(i).padStart(4, '0')}.txt`]: '' });
    const res = await call(makeCtx(big), 'glob', { pattern: '**/*.txt' });
    const lines = res.content.split('\n');
    assert.equal(lines.length, 501);
    assert.equal(lines[0], 'f/0000.txt');
    assert.equal(lines[500], '[… 20 more files not shown (520 in all); narrow the pattern or path]');
  });
});

describe('tools: list_dir', () => {
  const ws = fixture();
  fs.symlinkSync(path.join(ws, 'src'), path.join(ws, 'src-link'));

  it('lists folders first with item counts, then files with sizes; ignored entries are marked', async () => {
    const res = await call(makeCtx(ws), 'list_dir', {});
    const lines = res.content.split('\n');
    assert.equal(lines[0], '.:');
    assert.ok(lines.includes('.github/ (1 item)'));
    assert.ok(lines.includes('build/ (ignored)'));
    assert.ok(lines.includes('node_modules/ (ignored)'));
    assert.ok(lines.includes('src/ (3 items)'));
    assert.ok(lines.includes('src-link/ (3 items) (link)'));
    assert.ok(lines.includes('debug.log (10 B, ignored)'));
    assert.ok(lines.includes('keep.log (11 B)'));
    assert.ok(!lines.some((l) => l.startsWith('.git/')));
    assert.ok(lines.indexOf('src/ (3 items)') < lines.indexOf('keep.log (11 B)'));
    const nested = await call(makeCtx(ws), 'list_dir', { path: 'src/nested' });
    assert.equal(nested.content, 'src/nested:\n.gitignore (10 B)\nok.ts (12 B)\nsecret.ts (34 B, ignored)');
  });

  it('refuses a file and a missing folder', async () => {
    assert.match((await call(makeCtx(ws), 'list_dir', { path: 'keep.log' })).content, /is a file/);
    assert.equal((await call(makeCtx(ws), 'list_dir', { path: 'zzz' })).error?.code, 'not_found');
  });
});
