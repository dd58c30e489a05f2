import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../../core/log';
import type { Problem, ProblemWatch } from '../../core/tools/problems-introduced';
import {
  decideDiagnosticsWait,
  DiagnosticsSettle,
  languageOfName,
  LanguagesWithDiagnostics,
  WAIT_TIMING,
  type ExtensionFacts,
  type LanguageContribution,
  type WaitDecision,
  type WaitPolicy,
} from '../../core/tools/diagnostics-wait';
import { codeOf, SEVERITY } from '../workspace/diagnostic-fields';
import { realPath } from '../workspace/real-path';

/** The core passes real paths while the editor keeps the path the folder was opened by: compare both. */
function sameFile(uri: vscode.Uri, absPath: string): boolean {
  if (uri.scheme !== 'file') return false;
  return uri.fsPath === absPath || (path.basename(uri.fsPath) === path.basename(absPath) && realPath(uri.fsPath) === absPath);
}

function openDocument(absPath: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => !d.isClosed && sameFile(d.uri, absPath));
}

function tabOf(absPath: string): vscode.Tab | undefined {
  for (const g of vscode.window.tabGroups.all) {
    for (const t of g.tabs) {
      const uris = t.input instanceof vscode.TabInputText ? [t.input.uri] : t.input instanceof vscode.TabInputTextDiff ? [t.input.original, t.input.modified] : [];
      if (uris.some((u) => sameFile(u, absPath))) return t;
    }
  }
  return undefined;
}

/**
 * VS Code's TypeScript service and language-server clients check only files shown in a tab: opens one
 * in the background (not focused; shown only when its editor group was empty). The returned function
 * closes it again unless it holds unsaved changes by then.
 */
async function openBackgroundTab(uri: vscode.Uri, absPath: string): Promise<() => void> {
  const options: vscode.TextDocumentShowOptions & { background: boolean } = { background: true, preserveFocus: true, preview: false };
  await vscode.commands.executeCommand('vscode.open', uri, options);
  return () => {
    const tab = tabOf(absPath);
    if (tab && !tab.isDirty) void Promise.resolve(vscode.window.tabGroups.close(tab, true)).catch(() => undefined);
  };
}

function problemsOf(uri: vscode.Uri): Problem[] {
  return vscode.languages.getDiagnostics(uri).map((d) => ({
    line: d.range.start.line + 1,
    severity: SEVERITY[d.severity],
    source: d.source,
    code: codeOf(d.code),
    message: d.message,
  }));
}

interface Manifest {
  isBuiltin?: boolean;
  main?: string;
  browser?: string;
  activationEvents?: unknown;
  contributes?: { languages?: unknown };
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** The languages an extension contributes, with the file names and extensions they claim. */
function contributedLanguages(pkg: Manifest): LanguageContribution[] {
  if (!Array.isArray(pkg.contributes?.languages)) return [];
  return (pkg.contributes.languages as { id?: unknown; extensions?: unknown; filenames?: unknown }[])
    .filter((l) => typeof l?.id === 'string')
    .map((l) => ({ id: l.id as string, extensions: strings(l.extensions), filenames: strings(l.filenames) }));
}

/** The installed extensions as the wait decision reads them, and every language they contribute. */
function installed(): { extensions: ExtensionFacts[]; languages: LanguageContribution[] } {
  const languages: LanguageContribution[] = [];
  const extensions = vscode.extensions.all.map((e) => {
    const pkg = (e.packageJSON ?? {}) as Manifest;
    const langs = contributedLanguages(pkg);
    languages.push(...langs);
    return {
      id: e.id,
      builtin: pkg.isBuiltin === true || e.id.toLowerCase().startsWith('vscode.'),
      hasCode: Boolean(pkg.main ?? pkg.browser),
      activationEvents: strings(pkg.activationEvents),
      languages: langs.map((l) => l.id),
    };
  });
  return { extensions, languages };
}

/** The policy in use, or the old fixed wait the edit-latency bench measures against. */
function policyFromEnv(): WaitPolicy {
  return process.env.SNOWPEA_BENCH_DIAGNOSTICS_WAIT === 'fixed' ? 'fixed' : 'settle';
}

interface Watcher {
  matches(uri: vscode.Uri): boolean;
  settle: DiagnosticsSettle;
}

/**
 * The ToolContext's watchProblems in VS Code. Tracks, for the whole window, which languages have had
 * diagnostics; an edit to a file of a language nothing checks returns at once (logged once per
 * language). Otherwise: the file's problems now (a file not shown in a tab is opened in a background
 * tab and its language services are given a moment), then, after the write, its problems once its
 * diagnostics changed and went quiet (or none changed in time).
 */
export class EditDiagnostics implements vscode.Disposable {
  private readonly seen = new LanguagesWithDiagnostics();
  private readonly watchers = new Set<Watcher>();
  /** The decision last logged per language: info when it is new, debug when repeated. */
  private readonly logged = new Map<string, boolean>();
  private readonly sub: vscode.Disposable;
  private readonly timing;

  constructor(
    private readonly log: Logger,
    private readonly policy: WaitPolicy = policyFromEnv(),
  ) {
    this.timing = WAIT_TIMING[policy];
    this.sub = vscode.languages.onDidChangeDiagnostics((e) => this.changed(e.uris));
    this.changed(vscode.languages.getDiagnostics().map(([uri]) => uri));
    if (policy !== 'settle') log.info(`diagnostics after edit: the "${policy}" wait (SNOWPEA_BENCH_DIAGNOSTICS_WAIT) is in use`);
  }

  private changed(uris: readonly vscode.Uri[]): void {
    for (const uri of uris) {
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      this.seen.note(doc?.languageId, path.extname(uri.path));
      for (const w of this.watchers) if (w.matches(uri)) w.settle.changed();
    }
  }

  /** The file's language: its open document's, else what VS Code would give it by name (without opening it). */
  private languageOf(absPath: string, doc: vscode.TextDocument | undefined, languages: readonly LanguageContribution[]): string {
    if (doc) return doc.languageId;
    const associations = vscode.workspace.getConfiguration('files', vscode.Uri.file(absPath)).get<Record<string, string>>('associations') ?? {};
    return languageOfName(path.basename(absPath), languages, associations);
  }

  /** Whether an edit to this file waits, with the decision logged (info the first time it is made for its language, else debug). */
  private shouldWait(absPath: string, display: string): boolean {
    const doc = openDocument(absPath);
    const { extensions, languages } = installed();
    const languageId = this.languageOf(absPath, doc, languages);
    const d: WaitDecision =
      this.policy === 'fixed'
        ? languageId === 'plaintext'
          ? { wait: false, reason: 'plain text; not waited' }
          : { wait: true, reason: 'every edit waits (fixed)' }
        : decideDiagnosticsWait({
            languageId,
            fileExt: path.extname(absPath),
            seen: this.seen,
            extensions,
            settingOn: (key) => vscode.workspace.getConfiguration(undefined, vscode.Uri.file(absPath)).get<boolean>(key) === true,
          });
    const line = `diagnostics after edit of ${display}: ${d.reason}`;
    if (this.logged.get(languageId) === d.wait) this.log.debug(line);
    else this.log.info(line);
    this.logged.set(languageId, d.wait);
    return d.wait;
  }

  async watch(absPath: string, signal: AbortSignal): Promise<ProblemWatch | undefined> {
    const display = vscode.workspace.asRelativePath(absPath);
    const watcher: Watcher = { matches: (u) => sameFile(u, absPath), settle: new DiagnosticsSettle(this.timing) };
    this.watchers.add(watcher);
    const uri = vscode.Uri.file(absPath);
    let closeTab = () => {};
    const dispose = () => {
      this.watchers.delete(watcher);
      watcher.settle.dispose();
      closeTab();
    };
    const timed = async (what: string, start: number, noChangeMs: number) => {
      const outcome = await watcher.settle.settle(start, noChangeMs, signal);
      this.log.debug(`diagnostics after edit of ${display}: ${what} waited ${Date.now() - start} ms (${outcome})`);
    };
    try {
      // Decided before anything is opened: a file nothing checks is written to disk as with "off".
      const exists = fs.existsSync(absPath);
      if (exists && !this.shouldWait(absPath, display)) {
        dispose();
        return undefined;
      }
      let doc = openDocument(absPath);
      if (!doc && exists) doc = await vscode.workspace.openTextDocument(uri);
      if (doc && !tabOf(absPath)) {
        const opened = Date.now();
        closeTab = await openBackgroundTab(doc.uri, absPath);
        await timed('before the write', opened, this.timing.baselineNoChangeMs);
      }
      const before = doc ? problemsOf(doc.uri) : [];
      const writeStart = Date.now();
      return {
        before,
        after: async () => {
          try {
            if (!exists && !this.shouldWait(absPath, display)) return []; // a new file: decided now that it is there
            doc ??= openDocument(absPath) ?? (await vscode.workspace.openTextDocument(uri));
            if (!tabOf(absPath)) closeTab = await openBackgroundTab(doc.uri, absPath);
          } catch {
            return []; // binary or too large for the editor: no language service checks it
          }
          await timed('after the write', writeStart, this.timing.noChangeMs);
          return problemsOf(doc.uri);
        },
        dispose,
      };
    } catch {
      dispose();
      return undefined;
    }
  }

  dispose(): void {
    this.sub.dispose();
    for (const w of this.watchers) w.settle.dispose();
    this.watchers.clear();
  }
}
