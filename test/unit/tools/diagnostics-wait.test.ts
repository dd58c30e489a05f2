import assert from 'node:assert/strict';
import {
  decideDiagnosticsWait,
  DiagnosticsSettle,
  languageOfName,
  LanguagesWithDiagnostics,
  WAIT_TIMING,
  type ExtensionFacts,
  type LanguageContribution,
  type SettleOutcome,
  type WaitClock,
  type WaitQuestion,
} from '../../../extension/core/tools/diagnostics-wait';

/** A clock whose time moves only when a test advances it, firing the timers due on the way. */
class FakeClock implements WaitClock {
  private t = 1_000_000;
  private timers: { at: number; fn: () => void }[] = [];

  now(): number {
    return this.t;
  }

  setTimer(fn: () => void, ms: number): () => void {
    const timer = { at: this.t + ms, fn };
    this.timers.push(timer);
    return () => void (this.timers = this.timers.filter((x) => x !== timer));
  }

  /** Timers not yet fired or cancelled. */
  pending(): number {
    return this.timers.length;
  }

  /** Moves time forward by `ms`, firing each due timer at its time and letting the promise chains it starts run. */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      await flush();
      const next = this.timers.filter((x) => x.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.timers = this.timers.filter((x) => x !== next);
      this.t = next.at;
      next.fn();
    }
    this.t = end;
    await flush();
  }
}

/** Lets pending promise callbacks run (no time passes on the fake clock). */
const flush = () => new Promise<void>((r) => setImmediate(r));

const timing = WAIT_TIMING.settle;

/** Starts a settle wait and records when (on the fake clock) and how it ended. */
function start(settle: DiagnosticsSettle, clock: FakeClock, noChangeMs: number, signal = new AbortController().signal) {
  const began = clock.now();
  const result: { outcome?: SettleOutcome; after?: number } = {};
  void settle.settle(began, noChangeMs, signal).then((o) => {
    result.outcome = o;
    result.after = clock.now() - began;
  });
  return result;
}

describe('issue 29: the diagnostics wait after an edit ends when the diagnostics settle', () => {
  it('a file whose diagnostics change after the write: ends quietMs after the last change, long before the no-change window', async () => {
    const clock = new FakeClock();
    const settle = new DiagnosticsSettle(timing, clock);
    const r = start(settle, clock, timing.noChangeMs);
    await clock.advance(300);
    settle.changed();
    await clock.advance(100);
    settle.changed(); // semantic diagnostics after the syntax ones: the quiet period starts again
    await clock.advance(timing.quietMs - 1);
    assert.equal(r.outcome, undefined, 'still waiting 1 ms before the quiet period ends');
    await clock.advance(1);
    assert.deepEqual(r, { outcome: 'settled', after: 400 + timing.quietMs });
    assert.equal(clock.pending(), 0, 'no timer left behind');
  });

  it('a file that stays clean gets no event: the wait ends at the no-change window', async () => {
    const clock = new FakeClock();
    const settle = new DiagnosticsSettle(timing, clock);
    const r = start(settle, clock, timing.noChangeMs);
    await clock.advance(timing.noChangeMs - 1);
    assert.equal(r.outcome, undefined);
    await clock.advance(1);
    assert.deepEqual(r, { outcome: 'no-change', after: timing.noChangeMs });
  });

  it('a change from before the write does not count as the answer to it', async () => {
    const clock = new FakeClock();
    const settle = new DiagnosticsSettle(timing, clock);
    settle.changed();
    await clock.advance(10);
    const r = start(settle, clock, timing.noChangeMs);
    await clock.advance(timing.noChangeMs);
    assert.deepEqual(r, { outcome: 'no-change', after: timing.noChangeMs });
  });

  it('diagnostics that never go quiet: the wait ends at maxMs', async () => {
    const clock = new FakeClock();
    const settle = new DiagnosticsSettle(timing, clock);
    const r = start(settle, clock, timing.noChangeMs);
    for (let t = 0; t < timing.maxMs && r.outcome === undefined; t += 100) {
      settle.changed();
      await clock.advance(100);
    }
    assert.deepEqual(r, { outcome: 'cap', after: timing.maxMs });
    assert.equal(clock.pending(), 0);
  });

  it('cancelling the turn ends the wait at once and releases its timer', async () => {
    const clock = new FakeClock();
    const settle = new DiagnosticsSettle(timing, clock);
    const abort = new AbortController();
    const r = start(settle, clock, timing.noChangeMs, abort.signal);
    await clock.advance(50);
    assert.equal(clock.pending(), 1);
    abort.abort();
    await flush();
    assert.deepEqual(r, { outcome: 'cancelled', after: 50 });
    assert.equal(clock.pending(), 0);
    assert.equal(await settle.settle(clock.now(), timing.noChangeMs, abort.signal), 'cancelled', 'an aborted signal does not wait at all');
  });

  it('dispose ends a wait under way and any later one', async () => {
    const clock = new FakeClock();
    const settle = new DiagnosticsSettle(timing, clock);
    const r = start(settle, clock, timing.noChangeMs);
    await clock.advance(20);
    settle.dispose();
    await flush();
    assert.deepEqual(r, { outcome: 'cancelled', after: 20 });
    assert.equal(clock.pending(), 0);
    assert.equal(await settle.settle(clock.now(), timing.noChangeMs, new AbortController().signal), 'cancelled');
  });
});

const builtin = (id: string, languages: string[] = [], activationEvents: string[] = []): ExtensionFacts => ({ id, builtin: true, hasCode: true, activationEvents, languages });
/** What code-server 4.139 ships, as far as these languages go (the Markdown extension activates for Markdown but checks it only when asked). */
const SHIPPED: ExtensionFacts[] = [
  builtin('vscode.typescript-language-features', [], ['onLanguage:typescript']),
  builtin('vscode.json-language-features', [], ['onLanguage:json']),
  builtin('vscode.markdown-language-features', [], ['onLanguage:markdown']),
  builtin('vscode.extension-editing', [], ['onLanguage:markdown']),
  builtin('GitHub.copilot-chat', ['markdown']),
  { id: 'vscode.markdown', builtin: true, hasCode: false, activationEvents: [], languages: ['markdown'] },
];

function ask(languageId: string, fileExt: string, over: Partial<WaitQuestion> = {}) {
  return decideDiagnosticsWait({ languageId, fileExt, seen: new LanguagesWithDiagnostics(), extensions: SHIPPED, settingOn: () => false, ...over });
}

describe('issue 29: which edits wait for diagnostics at all', () => {
  it('Markdown in a stock VS Code: no provider, not waited, and the reason says so', () => {
    assert.deepEqual(ask('markdown', '.md'), { wait: false, reason: 'no diagnostics provider for markdown; not waited' });
  });

  it('plain text and a language no extension knows are not waited for', () => {
    assert.equal(ask('plaintext', '.txt').wait, false);
    assert.equal(ask('toml', '.toml').wait, false);
  });

  it("TypeScript and JSON wait: VS Code's own extensions check them", () => {
    assert.deepEqual(ask('typescript', '.ts'), { wait: true, reason: 'vscode.typescript-language-features checks typescript' });
    assert.equal(ask('json', '.json').wait, true);
  });

  it('a built-in checker that was disabled (not installed) does not count', () => {
    const without = SHIPPED.filter((e) => e.id !== 'vscode.typescript-language-features');
    assert.equal(ask('typescript', '.ts', { extensions: without }).wait, false);
  });

  it('Markdown waits when markdown.validate.enabled is on', () => {
    const d = ask('markdown', '.md', { settingOn: (k) => k === 'markdown.validate.enabled' });
    assert.deepEqual(d, { wait: true, reason: 'vscode.markdown-language-features checks markdown (markdown.validate.enabled is on)' });
  });

  it('another extension with code that activates for the language (a linter, a language server) makes it wait; one without code does not', () => {
    const lint: ExtensionFacts = { id: 'DavidAnson.vscode-markdownlint', builtin: false, hasCode: true, activationEvents: ['onLanguage:markdown'], languages: [] };
    assert.deepEqual(ask('markdown', '.md', { extensions: [...SHIPPED, lint] }), { wait: true, reason: 'DavidAnson.vscode-markdownlint activates for markdown' });
    const server: ExtensionFacts = { id: 'rust-lang.rust-analyzer', builtin: false, hasCode: true, activationEvents: [], languages: ['rust'] };
    assert.equal(ask('rust', '.rs', { extensions: [server] }).wait, true, 'contributing the language counts as activating for it');
    const grammar: ExtensionFacts = { id: 'someone.toml-colours', builtin: false, hasCode: false, activationEvents: [], languages: ['toml'] };
    assert.equal(ask('toml', '.toml', { extensions: [grammar] }).wait, false);
  });

  it('a language that has had diagnostics in this window waits, found by language id or, for unopened files, by extension', () => {
    const seen = new LanguagesWithDiagnostics();
    seen.note('plaintext', '.txt'); // a spell checker published for a text file
    assert.deepEqual(ask('plaintext', '.txt', { seen }), { wait: true, reason: 'plaintext files have had diagnostics in this window' });
    seen.note(undefined, '.TOML'); // a task's problem matcher, for a file no editor has open
    assert.equal(ask('toml', '.toml', { seen }).wait, true);
    assert.equal(ask('markdown', '.md', { seen }).wait, false, 'other languages are not affected');
    assert.equal(ask('makefile', '', { seen }).wait, false, 'a file without an extension matches no extension seen');
  });
});

describe('issue 29: the language of a file not opened, from its name (as VS Code would give it)', () => {
  const LANGS: LanguageContribution[] = [
    { id: 'markdown', extensions: ['.md', '.markdown'] },
    { id: 'typescript', extensions: ['.ts', '.mts'] },
    { id: 'typescriptreact', extensions: ['.tsx'] },
    { id: 'json', extensions: ['.json'], filenames: ['.babelrc'] },
    { id: 'jsonc', extensions: ['.jsonc', '.code-workspace'], filenames: ['tsconfig.json', 'settings.json'] },
    { id: 'dts', extensions: ['.d.ts'] },
  ];

  it('by extension, the longest that matches, case aside', () => {
    assert.equal(languageOfName('README.MD', LANGS), 'markdown');
    assert.equal(languageOfName('a.ts', LANGS), 'typescript');
    assert.equal(languageOfName('types.d.ts', LANGS), 'dts');
  });

  it('a contributed file name wins over the extension', () => {
    assert.equal(languageOfName('tsconfig.json', LANGS), 'jsonc');
    assert.equal(languageOfName('other.json', LANGS), 'json');
    assert.equal(languageOfName('.babelrc', LANGS), 'json');
  });

  it("the user's files.associations on the file name win; patterns with a folder part are left out", () => {
    assert.equal(languageOfName('page.mdx', LANGS, { '*.mdx': 'markdown' }), 'markdown');
    assert.equal(languageOfName('notes.md', LANGS, { 'notes.md': 'plaintext' }), 'plaintext');
    assert.equal(languageOfName('a.md', LANGS, { '**/docs/*.md': 'plaintext' }), 'markdown');
  });

  it('no match is plain text', () => {
    assert.equal(languageOfName('Makefile', LANGS), 'plaintext');
    assert.equal(languageOfName('data.xyz', LANGS), 'plaintext');
  });
});
