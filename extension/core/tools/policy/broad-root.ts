import * as os from 'node:os';
import * as path from 'node:path';
import { realRoot } from '../paths';

/**
 * A warning when the workspace is the home folder or the file system root: then nearly every file
 * of the user counts as "inside the workspace" and reads there run without asking (credential
 * folders such as ~/.ssh and ~/.aws still ask every time).
 */
export function broadRootWarning(workspaceRoot: string): string | undefined {
  const root = realRoot(workspaceRoot);
  const home = realRoot(os.homedir());
  const what = root === home ? 'your home folder' : root === path.parse(root).root ? 'the file system root' : undefined;
  if (!what) return undefined;
  return `the workspace is ${what} (${root}): every file under it counts as inside the workspace, so read tools read it without asking (~/.ssh, ~/.aws, ~/.gnupg and other credential folders still ask). Open a project folder instead.`;
}
