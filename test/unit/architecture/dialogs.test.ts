import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Every host file under extension/, recursively. */
function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('architecture: VS Code dialogs show untrusted text only through host/dialogs.ts (red team N2)', () => {
  it('no file but extension/host/dialogs.ts calls window.showWarningMessage, showInformationMessage or showErrorMessage', () => {
    const offenders = tsFiles('extension')
      .filter((f) => path.normalize(f) !== path.normalize('extension/host/dialogs.ts'))
      .filter((f) => /\.show(?:Warning|Information|Error)Message\s*\(/.test(fs.readFileSync(f, 'utf8')));
    assert.deepEqual(offenders, []);
  });

  it('the check reads the tree: dialogs.ts itself calls them', () => {
    assert.match(fs.readFileSync('extension/host/dialogs.ts', 'utf8'), /window\.showWarningMessage\(/);
  });
});
