import * as path from 'node:path';

/** The repository root (where `npm run package` writes snowpea-<version>.vsix). */
export const REPO_ROOT = path.resolve(__dirname, '../../..');

/** Per-suite user-data, extensions and workspace folders live here (ignored by git). */
export const CACHE_ROOT = path.join(REPO_ROOT, '.vscode-test');

/** Screenshots and logs of failed tests (ignored by git). */
export const RESULTS_DIR = path.join(REPO_ROOT, 'test-results', 'e2e');
