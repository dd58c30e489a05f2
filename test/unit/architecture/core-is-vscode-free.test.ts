import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../..');

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    return d.isDirectory() ? walk(p) : /\.(ts|tsx|js|mjs|cjs)$/.test(d.name) ? [p] : [];
  });
}

/** Finds imports/requires of the `vscode` module in one source text. */
export function importsVscode(text: string): boolean {
  return /(?:from\s*|import\s*\(\s*|require\s*\(\s*|import\s+)['"]vscode['"]/.test(text);
}

describe('architecture: extension/core never imports vscode', () => {
  it('the detector catches every import form', () => {
    assert.ok(importsVscode(`import * as vscode from 'vscode';`));
    assert.ok(importsVscode(`import type { Uri } from "vscode";`));
    assert.ok(importsVscode(`const v = require('vscode');`));
    assert.ok(importsVscode(`const v = await import('vscode');`));
    assert.ok(importsVscode(`import 'vscode';`));
    assert.ok(!importsVscode(`import { z } from 'zod'; // vscode-free`));
    assert.ok(!importsVscode(`import x from './vscode-like';`));
  });

  it('no file under extension/core imports vscode', () => {
    const files = walk(path.join(root, 'extension/core'));
    assert.ok(files.length > 0, 'expected core source files');
    const offenders = files.filter((f) => importsVscode(fs.readFileSync(f, 'utf8'))).map((f) => path.relative(root, f));
    assert.deepEqual(offenders, [], `these core files import vscode: ${offenders.join(', ')}`);
  });
});
