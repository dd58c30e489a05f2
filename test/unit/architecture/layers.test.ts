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
  /** Whether one of their imports breaks it. */
  forbidden(target: Target): boolean;
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
  return sources.filter((s) => rule.applies(s.file)).flatMap((s) => targetsOf(s).filter((t) => rule.forbidden(t)).map((t) => `${s.file} -> ${t.spec}`));
}

const CORE = 'extension/core';
const folder = (name: string) => `${CORE}/${name}`;

export const RULES = {
  vocabulary: {
    name: 'core/conversation imports only itself, core/model/types, node builtins and zod',
    applies: (f: string) => inFolder(f, folder('conversation')),
    forbidden: (t: Target) =>
      t.resolved !== undefined ? !inFolder(t.resolved, folder('conversation')) && t.resolved !== folder('model/types') : !isBuiltin(t.spec) && t.spec !== 'zod',
  },
  agent: {
    name: 'nothing in core outside core/agent imports the Agent (host and cli may)',
    applies: (f: string) => inFolder(f, CORE) && !inFolder(f, folder('agent')),
    forbidden: (t: Target) => inFolder(t.resolved, folder('agent')),
  },
  webview: {
    name: 'webview/src reaches extension/ only through extension/protocol',
    applies: (f: string) => inFolder(f, 'webview/src'),
    forbidden: (t: Target) => inFolder(t.resolved, 'extension') && !inFolder(t.resolved, 'extension/protocol'),
  },
  tools: {
    name: 'core/tools imports neither the agent, the context nor the user-input layer above it',
    applies: (f: string) => inFolder(f, folder('tools')),
    forbidden: (t: Target) => ['agent', 'context', 'input'].some((n) => inFolder(t.resolved, folder(n))),
  },
  images: {
    name: 'core/images lies below the tools: it imports none of tools, input, context or agent',
    applies: (f: string) => inFolder(f, folder('images')),
    forbidden: (t: Target) => ['tools', 'input', 'context', 'agent'].some((n) => inFolder(t.resolved, folder(n))),
  },
  browser: {
    name: 'core/browser does not import core/tools (the browser tools import the browser)',
    applies: (f: string) => inFolder(f, folder('browser')),
    forbidden: (t: Target) => inFolder(t.resolved, folder('tools')),
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
      'vocabulary',
      sample(`${CORE}/conversation/wire.ts`, `import type { Settings } from '../settings/schema';\nimport { x } from '../model/capabilities';\nimport y from 'openai';`),
      sample(`${CORE}/conversation/wire.ts`, `import type { WireMessage } from '../model/types';\nimport { m } from './messages';\nimport { z } from 'zod';\nimport * as fs from 'node:fs';\nimport path from 'path';`),
    ],
    [
      'agent',
      sample(`${CORE}/tools/runtime.ts`, `import type { LoopServices } from '../agent/loop-services';\nconst { Agent } = await import('../agent/agent');`),
      [
        { file: `${CORE}/agent/loop.ts`, text: `import type { LoopServices } from './loop-services';` },
        { file: 'extension/host/agent-host.ts', text: `import { Agent } from '../core/agent/agent';` },
        { file: `${CORE}/tools/runtime.ts`, text: `import type { Session } from '../conversation/session';` },
      ],
    ],
    [
      'webview',
      sample('webview/src/state/x.ts', `import type { Session } from '../../../extension/core/conversation/session';\nimport { y } from '../../../extension/host/chat-view';`),
      sample('webview/src/state/x.ts', `import type { HostMessage } from '../../../extension/protocol';\nimport { z } from '../../../extension/protocol/agent-event';\nimport { w } from './types';`),
    ],
    [
      'tools',
      sample(`${CORE}/tools/core/read-file.ts`, `import { a } from '../../agent/agent';\nimport { b } from '../../context/caps';\nimport { c } from '../../input/at-path';`),
      sample(`${CORE}/tools/core/read-file.ts`, `import { a } from '../../images/header';\nimport { b } from '../../conversation/messages';\nimport { c } from '../paths';`),
    ],
    [
      'images',
      sample(`${CORE}/images/store.ts`, `import { a } from '../tools/exec/scratch';\nimport { b } from '../input/compose';`),
      sample(`${CORE}/images/store.ts`, `import { a } from '../os/private-files';\nimport { b } from './limits';\nimport type { ImageRef } from '../conversation/messages';`),
    ],
    [
      'browser',
      sample(`${CORE}/browser/launcher.ts`, `import { scrubEnv } from '../tools/exec/child-env';`),
      sample(`${CORE}/browser/launcher.ts`, `import { scrubEnv } from '../os/child-env';\nimport { f } from './find-browser';`),
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

  for (const rule of Object.values(RULES)) {
    it(rule.name, () => {
      assert.ok(sources.some((s) => rule.applies(s.file)), 'the rule applies to some file');
      assert.deepEqual(violations(sources, rule), []);
    });
  }
});
