import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { composeUserPrompt, type ComposeOptions } from '../../../extension/core/input/compose';
import { MAX_CHANGES_CHARS } from '../../../extension/core/input/changes-mention';
import type { MentionSources, ProblemEntry, TerminalCapture } from '../../../extension/core/input/mention-keywords';
import { MAX_PROBLEM_MESSAGE_CHARS, MAX_PROBLEMS, MAX_PROBLEMS_CHARS } from '../../../extension/core/input/problems-mention';
import { MAX_TERMINAL_CHARS, MAX_TERMINAL_LINES, terminalText } from '../../../extension/core/input/terminal-mention';

/** Keywords never touch the attachment store: any use of it is a test failure. */
const noStore: ComposeOptions['store'] = {
  addFile: () => assert.fail('the store was used'),
  addBytes: () => assert.fail('the store was used'),
  addBase64: () => assert.fail('the store was used'),
};

const tmp = (prefix: string) => fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));

async function compose(text: string, o: { root?: string; sources?: MentionSources; trusted?: boolean } = {}) {
  const composed = await composeUserPrompt(
    { text },
    { workspaceRoot: o.root ?? tmp('sp-kw-'), store: noStore, readMaxLines: 2000, mentionSources: o.sources, workspaceTrusted: o.trusted ?? true },
  );
  const parts = typeof composed.content === 'string' ? [composed.content] : composed.content.map((p) => (p.type === 'text' ? p.text : `<${p.type}>`));
  return { ...composed, parts };
}

const problem = (over: Partial<ProblemEntry> = {}): ProblemEntry => ({ path: 'src/a.ts', line: 3, column: 7, severity: 'error', message: "Type 'string' is not assignable to type 'number'.", source: 'ts', code: '2322', ...over });

describe('@problems: the workspace diagnostics, compact', () => {
  it('errors first, then warnings, one line each with path:line:column, source and code; information and hints counted, not listed', async () => {
    const sources: MentionSources = {
      problems: () => [
        problem({ path: 'src/b.ts', line: 9, column: 1, severity: 'warning', message: "'x' is declared but never used.\nSecond line of detail", code: '6133' }),
        problem({ path: 'src/z.ts', line: 1, column: 1, severity: 'information', message: 'info' }),
        problem(),
        problem({ path: 'config.json', line: 2, column: 13, severity: 'error', message: 'Value expected', source: 'json', code: undefined }),
        problem({ path: 'src/c.ts', severity: 'hint', message: 'hint' }),
      ],
    };
    const { parts, problems, mentions } = await compose('fix @problems please', { sources });
    assert.deepEqual(problems, [], 'attached: nothing for the user to hear');
    assert.deepEqual(mentions, [{ raw: '@problems', path: 'problems', kind: 'keyword' }]);
    assert.equal(parts[0], 'fix @problems please', 'the typed text comes first, as typed');
    assert.equal(
      parts[1],
      [
        '<problems errors="2" warnings="1">',
        'config.json:2:13 error [json] Value expected',
        "src/a.ts:3:7 error [ts 2322] Type 'string' is not assignable to type 'number'.",
        "src/b.ts:9:1 warning [ts 6133] 'x' is declared but never used.",
        '[2 information or hint diagnostics left out]',
        '</problems>',
      ].join('\n'),
    );
  });

  it('caps: at most MAX_PROBLEMS lines, long messages cut, and the rest counted', async () => {
    const many = Array.from({ length: MAX_PROBLEMS + 40 }, (_, i) => problem({ line: i + 1, message: i < 3 ? `long ${'x'.repeat(MAX_PROBLEM_MESSAGE_CHARS)}` : `problem ${i}` }));
    const { parts } = await compose('@problems', { sources: { problems: () => many } });
    const lines = parts[1]!.split('\n');
    const listed = lines.filter((l) => l.startsWith('src/a.ts:'));
    assert.equal(listed.length, MAX_PROBLEMS);
    assert.deepEqual(listed.slice(0, 3).map((l) => l.length), [3, 3, 3].map((_, i) => `src/a.ts:${i + 1}:7 error [ts 2322] `.length + MAX_PROBLEM_MESSAGE_CHARS + 1), 'a long message is cut, with an ellipsis');
    assert.ok(listed.slice(0, 3).every((l) => l.endsWith('…')));
    assert.ok(lines.includes(`[showing ${MAX_PROBLEMS} of ${MAX_PROBLEMS + 40} problems; 40 more not shown]`), lines.slice(-3).join('\n'));
  });

  it('caps: the block stays within MAX_PROBLEMS_CHARS however long each line is', async () => {
    const wide = Array.from({ length: 90 }, (_, i) => problem({ path: `src/${'deep/'.repeat(60)}f${i}.ts`, message: 'y'.repeat(MAX_PROBLEM_MESSAGE_CHARS) }));
    const { parts } = await compose('@problems', { sources: { problems: () => wide } });
    const listed = parts[1]!.split('\n').filter((l) => l.startsWith('src/'));
    assert.ok(listed.length < 90 && listed.length > 10, `${listed.length} lines`);
    assert.ok(listed.join('\n').length <= MAX_PROBLEMS_CHARS);
    assert.match(parts[1]!, new RegExp(`\\[showing ${listed.length} of 90 problems; ${90 - listed.length} more not shown\\]`));
  });

  it('no errors or warnings: the model is told so, and the user is not warned', async () => {
    const none = await compose('@problems?', { sources: { problems: () => [] } });
    assert.deepEqual(none.parts.slice(1), ['[@problems: VS Code reports no errors or warnings in the workspace]']);
    assert.deepEqual(none.problems, []);
    const quiet = await compose('@problems', { sources: { problems: () => [problem({ severity: 'hint' })] } });
    assert.deepEqual(quiet.parts.slice(1), ['[@problems: VS Code reports no errors or warnings in the workspace (1 information or hint diagnostic left out)]']);
  });

  it('without the editor (the CLI): a note for the model and the user, and the rest of the message goes', async () => {
    const { parts, problems, mentions } = await compose('look at @problems and @terminal');
    assert.equal(parts[0], 'look at @problems and @terminal');
    assert.match(parts[1]!, /^\[@problems: not attached: only VS Code knows the workspace's problems \(the CLI has no language services\)/);
    assert.match(parts[2]!, /^\[@terminal: not attached: only VS Code's terminals can be read; paste the output instead\]$/);
    assert.deepEqual(problems, parts.slice(1));
    assert.deepEqual(mentions.map((m) => m.kind), ['unavailable', 'unavailable']);
  });
});

describe('@ keywords: how they are read in a prompt', () => {
  it('a keyword counts once, with trailing punctuation; a quoted, dotted or longer path is a path; code is left alone', async () => {
    let asked = 0;
    const sources: MentionSources = { problems: () => (asked++, [problem()]) };
    const root = tmp('sp-kw-');
    fs.mkdirSync(path.join(root, 'problems'));
    fs.writeFileSync(path.join(root, 'problems', 'notes.md'), 'note\n');
    const r = await compose('see @problems, then @problems. Also `@problems` and @problems/notes.md and @"problems"', { root, sources });
    assert.equal(asked, 1, 'asked once');
    assert.deepEqual(
      r.mentions.map((m) => `${m.raw} ${m.kind}`),
      ['@problems keyword', '@problems/notes.md file', '@"problems" folder'],
    );
    const dotted = await compose('and @./problems', { root, sources });
    assert.deepEqual(dotted.mentions.map((m) => `${m.raw} ${m.kind}`), ['@./problems folder']);
    assert.equal(asked, 1);
  });
});

describe('@terminal: the active terminal\'s last command and output', () => {
  const ok = (over: Partial<Extract<TerminalCapture, { status: 'ok' }>> = {}): TerminalCapture => ({ status: 'ok', name: 'bash', command: 'npm test', running: false, exitCode: 1, output: '', ...over });

  it('escape sequences out, progress lines at their last state, the command and exit code around the output', async () => {
    const output = '\x1b]633;C\x07\x1b[32m✓ adds\x1b[0m\r\n\x1b[31m✗ subtracts\x1b[39m\r\n 10%\r 50%\r100%\r\nabx\x08c\r\n\x1b]633;D;1\x07';
    const { parts, problems } = await compose('why did @terminal fail', { sources: { terminal: () => ok({ output, cwd: '/work/app' }) } });
    assert.deepEqual(problems, []);
    assert.equal(parts[1], ['<terminal name="bash" cwd="/work/app" exit="1">', '$ npm test', '✓ adds', '✗ subtracts', '100%', 'abc', '[exit code 1]', '</terminal>'].join('\n'));
  });

  it('keeps the tail: at most MAX_TERMINAL_LINES lines and MAX_TERMINAL_CHARS characters, saying what went', async () => {
    const lines = Array.from({ length: MAX_TERMINAL_LINES + 50 }, (_, i) => `line ${i}`).join('\n');
    const { parts } = await compose('@terminal', { sources: { terminal: () => ok({ output: lines, droppedChars: 1234 }) } });
    const body = parts[1]!.split('\n');
    assert.equal(body[2], '[earlier output left out: 50 lines and 1234 characters the recorder did not keep]');
    assert.equal(body[3], 'line 50');
    assert.equal(body.at(-3), `line ${MAX_TERMINAL_LINES + 49}`);

    const wide = Array.from({ length: 100 }, () => 'w'.repeat(1000)).join('\n');
    const cut = (await compose('@terminal', { sources: { terminal: () => ok({ output: wide }) } })).parts[1]!;
    const kept = cut.split('\n').filter((l) => l.startsWith('w'));
    assert.ok(kept.length * 1001 <= MAX_TERMINAL_CHARS && kept.length >= 19, `${kept.length} lines kept`);
    assert.match(cut, new RegExp(`\\[earlier output left out: ${100 - kept.length} lines\\]`));
  });

  it('a command still running says so; no output says so', async () => {
    const running = (await compose('@terminal', { sources: { terminal: () => ok({ running: true, exitCode: undefined, output: '' }) } })).parts[1]!;
    assert.equal(running, ['<terminal name="bash" running="true">', '$ npm test', '(no output)', '[still running]', '</terminal>'].join('\n'));
  });

  it('no terminal, no shell integration, nothing recorded, an old VS Code: a note for each that says what to do', async () => {
    const notes: Record<string, RegExp> = {
      'no-terminal': /^\[@terminal: not attached: no terminal is open\]$/,
      'no-shell-integration': /^\[@terminal: not attached: the terminal "zsh" has no shell integration, so its output cannot be read \(turn on terminal\.integrated\.shellIntegration\.enabled/,
      'no-command': /^\[@terminal: not attached: no command has run in the terminal "zsh" since Snowpea started; run it again, then mention @terminal\]$/,
      'no-api': /^\[@terminal: not attached: this version of VS Code does not let extensions read terminal output \(1\.93 and later do\)/,
    };
    for (const [status, note] of Object.entries(notes)) {
      const capture = (status === 'no-terminal' || status === 'no-api' ? { status } : { status, name: 'zsh' }) as TerminalCapture;
      const r = await compose('@terminal', { sources: { terminal: () => capture } });
      assert.match(r.parts[1]!, note, status);
      assert.deepEqual(r.problems, [r.parts[1]], `${status}: the user hears it too`);
    }
  });

  it('terminalText drops other control characters but keeps tabs', () => {
    assert.equal(terminalText('a\tb\x07c\x1b(Bd\x1b[?25le'), 'a\tbcde');
  });
});

describe('@changes: the git diff of the working tree (a real repository)', () => {
  const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=T', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8' });

  function repo(files: Record<string, string>): string {
    const root = tmp('sp-changes-');
    git(root, 'init', '-q');
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
    }
    if (Object.keys(files).length) {
      git(root, 'add', '-A');
      git(root, 'commit', '-q', '-m', 'start');
    }
    return root;
  }

  it('staged and unstaged changes against HEAD as one diff, untracked files named, counts in the opening line', async () => {
    const root = repo({ 'src/a.ts': 'export const a = 1;\n', 'README.md': '# Demo\n' });
    fs.writeFileSync(path.join(root, 'src/a.ts'), 'export const a = 2;\n');
    fs.writeFileSync(path.join(root, 'staged.txt'), 'new and staged\n');
    git(root, 'add', 'staged.txt');
    fs.writeFileSync(path.join(root, 'scratch.txt'), 'not tracked\n');
    const { parts, problems, mentions } = await compose('review @changes', { root });
    assert.deepEqual(problems, []);
    assert.deepEqual(mentions, [{ raw: '@changes', path: 'changes', kind: 'keyword' }]);
    const block = parts[1]!;
    assert.match(block, /^<changes base="HEAD" files="2" added="2" removed="1" untracked="1">\n/);
    assert.match(block, /diff --git a\/src\/a\.ts b\/src\/a\.ts\n[\s\S]*-export const a = 1;\n\+export const a = 2;/);
    assert.match(block, /diff --git a\/staged\.txt b\/staged\.txt\nnew file mode[\s\S]*\+new and staged/);
    assert.doesNotMatch(block, /not tracked/, 'an untracked file is named, not shown');
    assert.match(block, /\n\[untracked, not shown: scratch\.txt; mention one with @path to attach it\]\n<\/changes>$/);
  });

  it('a clean tree: the model is told there are no changes, and the user is not warned', async () => {
    const root = repo({ 'a.txt': 'a\n' });
    const r = await compose('@changes', { root });
    assert.deepEqual(r.parts.slice(1), ['[@changes: the working tree has no changes against HEAD]']);
    assert.deepEqual(r.problems, []);
  });

  it('a repository without commits: staged files against nothing', async () => {
    const root = repo({});
    fs.writeFileSync(path.join(root, 'first.txt'), 'first\n');
    git(root, 'add', 'first.txt');
    const block = (await compose('@changes', { root })).parts[1]!;
    assert.match(block, /^<changes base="empty \(no commits yet\)" files="1" added="1" removed="0" untracked="0">\ndiff --git a\/first\.txt b\/first\.txt/);
  });

  it('a workspace folder inside a larger repository: only its changes, its paths relative to it', async () => {
    const root = repo({ 'app/src/x.ts': 'x\n', 'other/y.ts': 'y\n' });
    fs.writeFileSync(path.join(root, 'app/src/x.ts'), 'x2\n');
    fs.writeFileSync(path.join(root, 'other/y.ts'), 'y2\n');
    fs.writeFileSync(path.join(root, 'other/new.ts'), 'n\n');
    const block = (await compose('@changes', { root: path.join(root, 'app') })).parts[1]!;
    assert.match(block, /files="1" added="1" removed="1" untracked="0"/);
    assert.match(block, /diff --git a\/src\/x\.ts b\/src\/x\.ts/);
    assert.doesNotMatch(block, /y\.ts|new\.ts/);
  });

  it('caps: whole files while they fit, the rest named with their counts; a single huge file is cut', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 12; i++) files[`f${String(i).padStart(2, '0')}.txt`] = 'old\n';
    const root = repo(files);
    const big = Array.from({ length: 400 }, (_, i) => `changed line ${i} ${'z'.repeat(20)}`).join('\n');
    for (const name of Object.keys(files)) fs.writeFileSync(path.join(root, name), `${big}\n`);
    const block = (await compose('@changes', { root })).parts[1]!;
    assert.ok(block.length < MAX_CHANGES_CHARS + 2000, `${block.length} chars`);
    const shown = [...block.matchAll(/^diff --git a\/(\S+)/gm)].map((m) => m[1]);
    assert.ok(shown.length >= 1 && shown.length < 12, `${shown.length} files shown`);
    const left = Object.keys(files).slice(shown.length);
    assert.ok(block.includes(`[diff cut at ${MAX_CHANGES_CHARS} characters: ${left.length} more changed files not shown: ${left.map((n) => `${n} (+400 -1)`).join(', ')}; ask for git_diff with a path to see one]`), block.slice(-600));

    const huge = repo({ 'one.txt': 'old\n' });
    fs.writeFileSync(path.join(huge, 'one.txt'), `${Array.from({ length: 5000 }, (_, i) => `row ${i} ${'q'.repeat(30)}`).join('\n')}\n`);
    const one = (await compose('@changes', { root: huge })).parts[1]!;
    assert.ok(one.length < MAX_CHANGES_CHARS + 500, `${one.length} chars`);
    assert.match(one, new RegExp(`\\n\\[one\\.txt: diff cut at ${MAX_CHANGES_CHARS} characters; \\d+ more\\]\\n</changes>$`));
  });

  it('not a repository, or Restricted Mode: a note that says why, and git does not run untrusted', async () => {
    const plain = tmp('sp-plain-');
    const notRepo = await compose('@changes', { root: plain });
    assert.deepEqual(notRepo.parts.slice(1), ['[@changes: not attached: the workspace is not inside a git repository]']);
    assert.deepEqual(notRepo.problems, notRepo.parts.slice(1));

    // A repository whose config would run a program if git read it: untrusted, git never starts.
    const root = repo({ 'a.txt': 'a\n' });
    const marker = path.join(root, 'ran');
    git(root, 'config', 'core.fsmonitor', `touch ${marker}; false`);
    fs.writeFileSync(path.join(root, 'a.txt'), 'b\n');
    const untrusted = await compose('@changes', { root, trusted: false });
    assert.match(untrusted.parts[1]!, /^\[@changes: not attached: git does not run in Restricted Mode/);
    assert.equal(fs.existsSync(marker), false);
  });
});
