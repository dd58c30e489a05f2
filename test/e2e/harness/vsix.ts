import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from './paths';

/**
 * The .vsix under test: $SNOWPEA_E2E_VSIX when set, else the newest snowpea-*.vsix in the repo root.
 * Throws a clear error when there is none.
 */
export function findVsix(): string {
  const override = process.env.SNOWPEA_E2E_VSIX;
  if (override) {
    if (!fs.existsSync(override)) throw new Error(`SNOWPEA_E2E_VSIX points at a missing file: ${override}`);
    return path.resolve(override);
  }
  const candidates = fs
    .readdirSync(REPO_ROOT)
    .filter((name) => /^snowpea-.+\.vsix$/.test(name))
    .map((name) => path.join(REPO_ROOT, name))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  if (candidates.length === 0) {
    throw new Error(`No snowpea-*.vsix in ${REPO_ROOT}. Run \`npm run package\` first (\`npm run test:e2e\` does it).`);
  }
  return candidates[0];
}
