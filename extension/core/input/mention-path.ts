/**
 * Which paths a user's `@path` mention or `--attach` may put in the prompt: the path rules of
 * read_file (red-team N3). A repository can ship `SETUP.md -> ../.aws/credentials` and ask, in its
 * README, to "follow @SETUP.md"; the user believes they name a workspace file. So:
 * - a path that names a place inside the workspace attaches only when its real path (links
 *   followed) is inside too: a link leading out is not followed;
 * - a credentials location of the home folder (~/.ssh, ~/.aws, ~/.netrc, ... before or after
 *   following links) is never attached, whoever names it;
 * - a path the user typed outside the workspace themselves (absolute, `~/`, `../`) attaches: they
 *   named that place, as they would pick it in a file dialog.
 * Refused paths stay out with a note that says why and how to get the file read (read_file, which
 * asks the user first).
 */
import type { ResolvedPath } from '../tools/paths';
import { isWithin, realRoot } from '../tools/paths';
import { rootPaths } from '../tools/roots';

const HOW = 'ask the agent to read it instead: read_file asks you first';

/** Why `r` (a resolved mention) is not attached, or undefined when it may be. */
export function mentionRefusal(workspaceRoot: string, r: ResolvedPath): string | undefined {
  const namedInside = rootPaths(workspaceRoot).some((root) => isWithin(realRoot(root), r.abs));
  if (namedInside && !r.inside) return `it links to ${r.real}, outside the workspace${r.sensitiveReason ? `, which holds credentials` : ''}; not followed (${HOW})`;
  if (r.sensitiveReason) return `${r.sensitiveReason}; not attached from a mention (${HOW})`;
  return undefined;
}
