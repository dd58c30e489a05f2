import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { builtinModules } from 'node:module';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../..');

/** A source file as the rules read it: its path from the repository root (posix) and its text. */
interface Source {
  file: string;
  text: string;
}

/** One import: the specifier as written, and for a relative one the repository path it names (no extension). */
interface Target {
  spec: string;
  resolved?: string;
}

interface Rule {
  name: string;
  /** Which files the rule holds for. */
  applies(file: string): boolean;
  /** Whether one of their imports breaks it (`file` is the importing file). */
  forbidden(target: Target, file: string): boolean;
}

/** The module specifiers a TS/JS source imports: static imports, re-exports, side-effect imports, import() and require(). */
export function importSpecifiers(text: string): string[] {
  const patterns = [
    /^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]/gm,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  return patterns.flatMap((re) => [...text.matchAll(re)].map((m) => m[1]));
}

function targetsOf(src: Source): Target[] {
  return importSpecifiers(src.text).map((spec) =>
    spec.startsWith('.') ? { spec, resolved: path.posix.normalize(path.posix.join(path.posix.dirname(src.file), spec)) } : { spec },
  );
}

const inFolder = (p: string | undefined, folder: string): boolean => p !== undefined && (p === folder || p.startsWith(`${folder}/`));
const isBuiltin = (spec: string): boolean => spec.startsWith('node:') || builtinModules.includes(spec);

/** Every import that breaks the rule, as `file -> specifier`. */
export function violations(sources: Source[], rule: Rule): string[] {
  return sources.filter((s) => rule.applies(s.file)).flatMap((s) => targetsOf(s).filter((t) => rule.forbidden(t, s.file)).map((t) => `${s.file} -> ${t.spec}`));
}

const CORE = 'extension/core';
const folder = (name: string) => `${CORE}/${name}`;

/**
 * The floors of extension/, lowest first: a room (a folder, or core/log) imports only itself and
 * rooms on lower floors. A new folder gets a floor here, not a rule of its own. (farm-studio's
 * `look extension` draws the same order.)
 */
export const FLOORS: ReadonlyArray<readonly string[]> = [
  [folder('settings'), folder('log'), folder('os'), folder('text')],
  [folder('model'), folder('browser')],
  [folder('conversation')],
  [folder('images'), folder('store'), 'extension/protocol'],
  [folder('tools')],
  [folder('checkpoints'), folder('input'), folder('mcp')],
  [folder('context')],
  [folder('library')],
  [folder('agent'), folder('chat')],
  ['extension/host', 'extension/cli', 'extension/lazy'],
];

const host = (name: string) => `extension/host/${name}`;

/**
 * The floors inside extension/host (one room of FLOORS), lowest first, by the same rule: dialogs,
 * the log, vscode.lm and the workspace's editor parts at the bottom; then what AgentHost is made
 * of; AgentHost; the views and commands that use it; activate.ts at the top.
 */
export const HOST_FLOORS: ReadonlyArray<readonly string[]> = [
  [host('dialogs'), host('log'), host('lm'), host('workspace')],
  [host('settings'), host('mcp'), host('edits'), host('library-host')],
  [host('chat')],
  [host('window-agent')],
  [host('agent-host')],
  [host('tree'), host('checkpoints')],
  [host('view')],
  [host('commands')],
  [host('activate')],
];

const web = (name: string) => `webview/src/${name}`;

/**
 * The floors of the webview, lowest first, by the same rule: the store, the bridge to the host and
 * the primitives (ui/) at the bottom, then the actions components call (app/), markdown, the
 * components, and at the top the App that lays them out and main.tsx that mounts it.
 */
export const WEBVIEW_FLOORS: ReadonlyArray<readonly string[]> = [
  [web('bridge'), web('state'), web('images'), web('mention'), web('ui'), web('styles')],
  [web('app')],
  [web('markdown')],
  [web('components')],
  [web('App')],
  [web('main')],
];

/** The room a repository path (with or without its extension) lies in, and its floor, in `floors`; undefined outside them. */
export function roomOf(p: string, floors: ReadonlyArray<readonly string[]> = FLOORS): { room: string; floor: number } | undefined {
  const bare = p.replace(/\.(ts|tsx|js|mjs|cjs)$/, '');
  for (let floor = 0; floor < floors.length; floor++) {
    for (const room of floors[floor]) if (inFolder(bare, room)) return { room, floor };
  }
  return undefined;
}

/** `file`'s import of `t` goes to another room on its own floor or above (an import outside the floors counts when it names a file under `within`). */
function upward(floors: ReadonlyArray<readonly string[]>, within: string, t: Target, file: string): boolean {
  if (t.resolved === undefined) return false;
  const from = roomOf(file, floors);
  const to = roomOf(t.resolved, floors);
  if (!from || !to) return inFolder(t.resolved, within);
  return to.room !== from.room && to.floor >= from.floor;
}

export const RULES = {
  floors: {
    name: 'every room of extension/ imports only itself and rooms on lower floors (FLOORS)',
    applies: (f: string) => inFolder(f, 'extension'),
    forbidden: (t: Target, file: string) => upward(FLOORS, 'extension', t, file),
  },
  hostFloors: {
    name: 'every room of extension/host imports only itself and rooms on lower floors (HOST_FLOORS)',
    applies: (f: string) => inFolder(f, 'extension/host'),
    forbidden: (t: Target, file: string) => upward(HOST_FLOORS, 'extension/host', t, file),
  },
  webviewFloors: {
    name: 'every room of webview/src imports only itself and rooms on lower floors (WEBVIEW_FLOORS)',
    applies: (f: string) => inFolder(f, 'webview/src'),
    forbidden: (t: Target, file: string) => upward(WEBVIEW_FLOORS, 'webview/src', t, file),
  },
  vocabulary: {
    name: 'core/conversation imports only itself, core/model/types, node builtins and zod',
    applies: (f: string) => inFolder(f, folder('conversation')),
    forbidden: (t: Target) =>
      t.resolved !== undefined ? !inFolder(t.resolved, folder('conversation')) && t.resolved !== folder('model/types') : !isBuiltin(t.spec) && t.spec !== 'zod',
  },
  webview: {
    name: 'webview/src reaches extension/ only through extension/protocol',
    applies: (f: string) => inFolder(f, 'webview/src'),
    forbidden: (t: Target) => inFolder(t.resolved, 'extension') && !inFolder(t.resolved, 'extension/protocol'),
  },
  os: {
    name: 'core/os depends on nothing but node builtins',
    applies: (f: string) => inFolder(f, folder('os')),
    forbidden: (t: Target) => (t.resolved !== undefined ? !inFolder(t.resolved, folder('os')) : !isBuiltin(t.spec)),
  },
} satisfies Record<string, Rule>;

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    return d.isDirectory() ? walk(p) : /\.(ts|tsx|js|mjs|cjs)$/.test(d.name) ? [p] : [];
  });
}

function tree(): Source[] {
  return ['extension', 'webview/src'].flatMap((d) =>
    walk(path.join(root, d)).map((p) => ({ file: path.relative(root, p).split(path.sep).join('/'), text: fs.readFileSync(p, 'utf8') })),
  );
}

const sample = (file: string, text: string): Source[] => [{ file, text }];

describe('architecture: the layers of extension/core and the webview', () => {
  it('the import scanner finds every import form and nothing in comments or strings', () => {
    const text = [
      `import { a } from './a';`,
      `import type {`,
      `  B,`,
      `  C,`,
      `} from "../b";`,
      `export { d } from './d';`,
      `export * from './e';`,
      `import './side-effect';`,
      `const f = await import('./f');`,
      `const g = require('./g');`,
      `/** see import x from './not-an-import' */`,
      `const s = "from './not-either'";`,
      `export const h = 'from';`,
    ].join('\n');
    assert.deepEqual(importSpecifiers(text).sort(), ['../b', './a', './d', './e', './f', './g', './side-effect']);
  });

  const cases: Array<[keyof typeof RULES, Source[], Source[]]> = [
    [
      'floors',
      [
        { file: `${CORE}/tools/runtime.ts`, text: `import type { LoopServices } from '../agent/loop-services';\nconst { Agent } = await import('../agent/agent');\nimport { c } from '../context/caps';` },
        { file: `${CORE}/images/store.ts`, text: `import { a } from '../tools/exec/scratch';\nimport { b } from '../input/compose';` },
        { file: `${CORE}/model/client.ts`, text: `import { a } from '../browser/ip';\nimport { b } from '../conversation/messages';` },
        { file: `${CORE}/chat/controller.ts`, text: `import { Agent } from '../agent/agent';` },
        { file: `${CORE}/os/child-env.ts`, text: `import { log } from '../log';` },
        { file: `${CORE}/settings/load.ts`, text: `import { x } from '../newfolder/x';` },
      ],
      [
        { file: `${CORE}/tools/core/read-file.ts`, text: `import { a } from '../../images/header';\nimport { b } from '../../conversation/messages';\nimport { c } from '../paths';\nimport { d } from '../../log';` },
        { file: 'extension/host/agent-host.ts', text: `import { Agent } from '../core/agent/agent';\nimport { p } from '../protocol';\nimport * as vscode from 'vscode';` },
        { file: `${CORE}/browser/launcher.ts`, text: `import { scrubEnv } from '../os/child-env';\nimport { f } from './find-browser';` },
      ],
    ],
    [
      'hostFloors',
      [
        { file: 'extension/host/chat/turn-notifier.ts', text: `import { AgentHost } from '../agent-host';\nimport { v } from '../view/chat-view';` },
        { file: 'extension/host/workspace/terminal-output.ts', text: `import { s } from '../settings/sources';\nimport { x } from '../newfolder/x';` },
      ],
      [
        { file: 'extension/host/view/chat-view.ts', text: `import { AgentHost } from '../agent-host';\nimport { d } from '../dialogs';\nimport { t } from './webview-html';\nimport { Agent } from '../../core/agent/agent';` },
      ],
    ],
    [
      'webviewFloors',
      [
        { file: 'webview/src/markdown/CodeBlock.tsx', text: `import { Icon } from '../components/Icon';\nimport { App } from '../App';` },
        { file: 'webview/src/ui/Icon.tsx', text: `import { useActions } from '../app/context';` },
        { file: 'webview/src/app/actions.ts', text: `import { Composer } from '../components/composer/Composer';\nimport { x } from '../newfolder/x';` },
      ],
      [
        { file: 'webview/src/components/Header.tsx', text: `import { Icon } from '../ui/Icon';\nimport { useActions } from '../app/context';\nimport { Markdown } from '../markdown/Markdown';\nimport { ToolCard } from './tool/ToolCard';` },
        { file: 'webview/src/App.tsx', text: `import { Composer } from './components/composer/Composer';\nimport type { HostMessage } from '../../extension/protocol';` },
      ],
    ],
    [
      'vocabulary',
      sample(`${CORE}/conversation/wire.ts`, `import type { Settings } from '../settings/schema';\nimport { x } from '../model/capabilities';\nimport y from 'openai';`),
      sample(`${CORE}/conversation/wire.ts`, `import type { WireMessage } from '../model/types';\nimport { m } from './messages';\nimport { z } from 'zod';\nimport * as fs from 'node:fs';\nimport path from 'path';`),
    ],
    [
      'webview',
      sample('webview/src/state/x.ts', `import type { Session } from '../../../extension/core/conversation/session';\nimport { y } from '../../../extension/host/view/chat-view';`),
      sample('webview/src/state/x.ts', `import type { HostMessage } from '../../../extension/protocol';\nimport { z } from '../../../extension/protocol/agent-event';\nimport { w } from './types';`),
    ],
    [
      'os',
      sample(`${CORE}/os/child-env.ts`, `import type { Logger } from '../log';\nimport x from 'some-package';`),
      sample(`${CORE}/os/child-env.ts`, `import * as fs from 'node:fs';\nimport * as os from 'os';\nimport { y } from './private-files';`),
    ],
  ];

  for (const [key, bad, good] of cases) {
    const rule = RULES[key];
    it(`detector for "${rule.name}": catches every breaking import of a sample and passes a conforming one`, () => {
      const found = violations(bad, rule);
      const expected = bad.flatMap((s) => importSpecifiers(s.text).map((spec) => `${s.file} -> ${spec}`));
      assert.deepEqual(found, expected);
      assert.deepEqual(violations(good, rule), []);
    });
  }

  const sources = tree();
  it('the scan reads the tree (core, host, protocol, webview)', () => {
    for (const f of [`${CORE}/conversation/events.ts`, `${CORE}/agent/agent.ts`, 'extension/protocol/index.ts', 'webview/src/main.tsx']) {
      assert.ok(sources.some((s) => s.file === f), `${f} was not read`);
    }
  });

  it('every source file of extension/ lies in a room with a floor (a new folder gets one in FLOORS)', () => {
    const homeless = sources.filter((s) => inFolder(s.file, 'extension') && !roomOf(s.file)).map((s) => s.file);
    assert.deepEqual(homeless, []);
  });

  it('every source file of extension/host lies in a room with a floor (a new folder gets one in HOST_FLOORS)', () => {
    const homeless = sources.filter((s) => inFolder(s.file, 'extension/host') && !roomOf(s.file, HOST_FLOORS)).map((s) => s.file);
    assert.deepEqual(homeless, []);
  });

  it('every source file of webview/src lies in a room with a floor (a new folder gets one in WEBVIEW_FLOORS)', () => {
    const homeless = sources.filter((s) => inFolder(s.file, 'webview/src') && !roomOf(s.file, WEBVIEW_FLOORS)).map((s) => s.file);
    assert.deepEqual(homeless, []);
  });

  for (const rule of Object.values(RULES)) {
    it(rule.name, () => {
      assert.ok(sources.some((s) => rule.applies(s.file)), 'the rule applies to some file');
      assert.deepEqual(violations(sources, rule), []);
    });
  }
});
