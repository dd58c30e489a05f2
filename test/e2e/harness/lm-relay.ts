import * as fs from 'node:fs';
import * as path from 'node:path';
import { CACHE_ROOT, REPO_ROOT } from './paths';

const SOURCE = path.join(REPO_ROOT, 'test', 'e2e', 'fixtures', 'lm-relay');

/**
 * Packs the test-only language-model provider (test/e2e/fixtures/lm-relay) into a .vsix with
 * vsce, once per run, and returns its path. It relays vscode.lm requests to the scripted
 * server named by SNOWPEA_LM_RELAY_URL in code-server's environment.
 */
export async function packLmRelay(): Promise<string> {
  const out = path.join(CACHE_ROOT, 'snowpea-lm-relay.vsix');
  fs.mkdirSync(CACHE_ROOT, { recursive: true });
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- @vscode/vsce is CommonJS without types for this entry
  const { createVSIX } = require('@vscode/vsce') as { createVSIX(o: Record<string, unknown>): Promise<void> };
  await createVSIX({ cwd: SOURCE, packagePath: out, dependencies: false, allowMissingRepository: true, skipLicense: true, allowStarActivation: true });
  return out;
}
