// `npm run test:electron`: runs the host smoke suite inside a desktop VS Code that
// @vscode/test-electron downloads. Needs internet access to Microsoft's servers, so it is not
// part of `npm test` or CI here (code-server covers the real-VS Code layer instead).
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTests } from '@vscode/test-electron';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

try {
  await runTests({
    extensionDevelopmentPath: root,
    extensionTestsPath: path.join(root, 'test/electron/suite.cjs'),
    launchArgs: ['--disable-extensions', '--disable-workspace-trust', root],
  });
} catch (e) {
  console.error(`test:electron failed: ${e?.message ?? e}`);
  process.exit(1);
}
