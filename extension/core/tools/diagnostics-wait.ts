/**
 * The wait for VS Code's diagnostics around an edit, without VS Code: which edits wait at all
 * (only files of a language something checks) and when a wait ends (the file's diagnostics changed
 * after the edit and then stayed quiet). The host feeds in the events and the facts it reads from
 * VS Code (extension/host/edits/edit-diagnostics.ts); the clock is injected so tests drive it.
 */

/** Timers for the settle wait: the real ones in the host, a fake one in tests. */
export interface WaitClock {
  now(): number;
  /** Calls `fn` after `ms`; the returned function cancels it. */
  setTimer(fn: () => void, ms: number): () => void;
}

export const systemClock: WaitClock = {
  now: () => Date.now(),
  setTimer(fn, ms) {
    const t = setTimeout(fn, ms);
    return () => clearTimeout(t);
  },
};

/** How long a wait may take, in ms. */
export interface WaitTiming {
  /** Diagnostics count as settled once they have been quiet this long after a change. */
  quietMs: number;
  /** After a write, the wait ends this long after the write when the file's diagnostics did not change (a file that stays clean gets no event). */
  noChangeMs: number;
  /** A file that was not open is opened first, and its language services get this long at most to report the "before" problems. */
  baselineNoChangeMs: number;
  /** However busy the language services, a wait ends this long after it began. */
  maxMs: number;
}

/**
 * 'settle': the policy in use. 'fixed': the policy before it (every edit waited, 0.5 s of quiet),
 * kept only as the baseline `npm run bench:edit` measures against (SNOWPEA_BENCH_DIAGNOSTICS_WAIT=fixed).
 */
export type WaitPolicy = 'settle' | 'fixed';

export const WAIT_TIMING: Record<WaitPolicy, WaitTiming> = {
  settle: { quietMs: 250, noChangeMs: 2000, baselineNoChangeMs: 1000, maxMs: 4000 },
  fixed: { quietMs: 500, noChangeMs: 2000, baselineNoChangeMs: 1000, maxMs: 4000 },
};

/** How a wait ended: diagnostics changed and went quiet, none changed in time, the cap, or cancelled. */
export type SettleOutcome = 'settled' | 'no-change' | 'cap' | 'cancelled';

/** When one file's diagnostics last changed, and a bounded wait for them to settle. */
export class DiagnosticsSettle {
  private last = -Infinity;
  private wake?: () => void;
  private disposed = false;

  constructor(
    private readonly timing: Pick<WaitTiming, 'quietMs' | 'maxMs'>,
    private readonly clock: WaitClock = systemClock,
  ) {}

  /** The file's diagnostics changed now. */
  changed(): void {
    this.last = this.clock.now();
    this.wake?.();
  }

  /**
   * Resolves once the diagnostics changed at or after `start` and then stayed quiet for quietMs
   * (maxMs after `start` at most), or when none changed within `noChangeMs` of `start`; at once
   * on abort or dispose.
   */
  async settle(start: number, noChangeMs: number, signal: AbortSignal): Promise<SettleOutcome> {
    for (;;) {
      if (signal.aborted || this.disposed) return 'cancelled';
      const changed = this.last >= start;
      const cap = start + this.timing.maxMs;
      const deadline = changed ? Math.min(this.last + this.timing.quietMs, cap) : Math.min(start + noChangeMs, cap);
      if (deadline <= this.clock.now()) return !changed ? 'no-change' : this.last + this.timing.quietMs > cap ? 'cap' : 'settled';
      await new Promise<void>((resolve) => {
        const done = () => {
          cancel();
          signal.removeEventListener('abort', done);
          this.wake = undefined;
          resolve();
        };
        const cancel = this.clock.setTimer(done, deadline - this.clock.now());
        this.wake = done;
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }

  /** Ends a wait under way ('cancelled') and any later one at once. */
  dispose(): void {
    this.disposed = true;
    this.wake?.();
  }
}

/** An installed extension as the wait decision reads it (from vscode.extensions.all). */
export interface ExtensionFacts {
  id: string;
  /** Shipped with VS Code (packageJSON.isBuiltin, or the `vscode.` publisher). */
  builtin: boolean;
  /** Has code to run (main or browser): only such an extension can publish diagnostics. */
  hasCode: boolean;
  activationEvents: readonly string[];
  /** Language ids it contributes. */
  languages: readonly string[];
}

/**
 * The languages VS Code's own extensions check (publish diagnostics for), with the setting that
 * must be on where checking is opt-in. VS Code's built-in extensions claim many languages they do
 * not check (grammars, Markdown preview, Emmet), so for them only this table counts.
 */
export const BUILTIN_CHECKERS: Readonly<Record<string, { extension: string; setting?: string }>> = {
  typescript: { extension: 'vscode.typescript-language-features' },
  typescriptreact: { extension: 'vscode.typescript-language-features' },
  javascript: { extension: 'vscode.typescript-language-features' },
  javascriptreact: { extension: 'vscode.typescript-language-features' },
  json: { extension: 'vscode.json-language-features' },
  jsonc: { extension: 'vscode.json-language-features' },
  css: { extension: 'vscode.css-language-features' },
  scss: { extension: 'vscode.css-language-features' },
  less: { extension: 'vscode.css-language-features' },
  html: { extension: 'vscode.html-language-features' },
  php: { extension: 'vscode.php-language-features' },
  markdown: { extension: 'vscode.markdown-language-features', setting: 'markdown.validate.enabled' },
};

/** Languages (and, for files no open document names, file extensions) that had diagnostics in this window. */
export class LanguagesWithDiagnostics {
  private readonly languages = new Set<string>();
  private readonly fileExts = new Set<string>();

  /** A file's diagnostics changed (or were there at start): its language when an open document names it, else its file extension (".ts"). */
  note(languageId: string | undefined, fileExt: string): void {
    if (languageId) this.languages.add(languageId);
    else if (fileExt) this.fileExts.add(fileExt.toLowerCase());
  }

  has(languageId: string, fileExt: string): boolean {
    return this.languages.has(languageId) || (fileExt !== '' && this.fileExts.has(fileExt.toLowerCase()));
  }
}

export type WaitDecision = { wait: true; reason: string } | { wait: false; reason: string };

export interface WaitQuestion {
  languageId: string;
  /** The file's extension with its dot (".md"), '' when it has none. */
  fileExt: string;
  seen: LanguagesWithDiagnostics;
  extensions: readonly ExtensionFacts[];
  /** A boolean setting's value for the file (e.g. markdown.validate.enabled). */
  settingOn(key: string): boolean;
}

/**
 * Whether an edit to a file of this language waits for diagnostics: when something in this window
 * has already published diagnostics for the language, when VS Code's own extension that checks it
 * is installed (and switched on where that is opt-in), or when another extension with code
 * activates for or contributes the language (a language server, most likely). Otherwise nothing
 * would report a problem, and the edit returns at once.
 */
export function decideDiagnosticsWait(q: WaitQuestion): WaitDecision {
  const lang = q.languageId;
  if (q.seen.has(lang, q.fileExt)) return { wait: true, reason: `${lang} files have had diagnostics in this window` };
  const builtin = BUILTIN_CHECKERS[lang];
  if (builtin && q.extensions.some((e) => e.id.toLowerCase() === builtin.extension)) {
    if (!builtin.setting) return { wait: true, reason: `${builtin.extension} checks ${lang}` };
    if (q.settingOn(builtin.setting)) return { wait: true, reason: `${builtin.extension} checks ${lang} (${builtin.setting} is on)` };
  }
  const other = q.extensions.find((e) => !e.builtin && e.hasCode && (e.activationEvents.includes(`onLanguage:${lang}`) || e.languages.includes(lang)));
  if (other) return { wait: true, reason: `${other.id} activates for ${lang}` };
  return { wait: false, reason: `no diagnostics provider for ${lang}; not waited` };
}

/** A language as an extension contributes it (contributes.languages). */
export interface LanguageContribution {
  id: string;
  extensions?: readonly string[];
  filenames?: readonly string[];
}

function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${body}$`, 'i');
}

/**
 * The language VS Code would give a file it has not opened, from its name alone: the user's
 * files.associations (patterns on the file name, "*.mdx"; patterns with a folder part are left
 * out), then a contributed file name, then the longest contributed extension; 'plaintext' when
 * none matches. Opening the file would tell for sure, but an opened document that no editor
 * shows is then written through the editor, which is what an edit that does not wait avoids.
 */
export function languageOfName(fileName: string, languages: readonly LanguageContribution[], associations: Readonly<Record<string, string>> = {}): string {
  for (const [pattern, id] of Object.entries(associations)) {
    if (!pattern.includes('/') && globToRegExp(pattern).test(fileName)) return id;
  }
  const lower = fileName.toLowerCase();
  for (const l of languages) if (l.filenames?.some((f) => f.toLowerCase() === lower)) return l.id;
  let best: { id: string; length: number } | undefined;
  for (const l of languages) {
    for (const ext of l.extensions ?? []) {
      const e = ext.toLowerCase();
      if (lower.endsWith(e) && (!best || e.length > best.length)) best = { id: l.id, length: e.length };
    }
  }
  return best?.id ?? 'plaintext';
}
