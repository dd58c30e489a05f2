/** Where every Snowpea process of the user (the CLI, each VS Code window) keeps a workspace's writer lock and restore journal. */
import * as path from 'node:path';
import { snowpeaHome } from '../settings/files';

/** `~/.snowpea/workspaces` (under SNOWPEA_HOME when set). */
export function workspaceCoordinationDir(): string {
  return path.join(snowpeaHome(), 'workspaces');
}
