import * as path from 'node:path';
import type { Logger } from '../log';
import { discoverContextFiles } from '../context/context-files';
import { resolveToolPath } from '../tools/paths';
import { isMultiRoot } from '../tools/roots';
import { listSkills, type Skill } from '../tools/skills';
import { listAgents, type CustomAgent } from './agents';
import { listCommands, type SlashCommand } from './commands';

export { findAgent, listAgents, type CustomAgent } from './agents';
export { findCommand, listCommands, slashInvocation, type SlashCommand } from './commands';
export { commandPart, expandCommand } from './expand';

/**
 * What the workspace and the user bring besides settings: slash commands, custom agents, skills
 * and instruction files, in Snowpea's formats and the formats of Claude Code, VS Code (Copilot),
 * Cline and Roo Code. Read fresh on each call (a few small folders), the workspace's only while
 * it is trusted; each skipped file is logged once.
 */
export class WorkspaceLibrary {
  private readonly logged = new Set<string>();

  constructor(
    private readonly o: {
      workspaceRoot: string;
      /** VS Code Workspace Trust, read at each call; absent: trusted (the CLI). */
      trusted?: () => boolean;
      logger?: Logger;
    },
  ) {}

  readonly skip = (why: string): void => {
    if (this.logged.has(why)) return;
    this.logged.add(why);
    this.o.logger?.warn(why);
  };

  get trusted(): boolean {
    return this.o.trusted?.() ?? true;
  }

  commands(): SlashCommand[] {
    return listCommands(this.o.workspaceRoot, { trusted: this.trusted, onSkip: this.skip });
  }

  agents(): CustomAgent[] {
    return listAgents(this.o.workspaceRoot, { trusted: this.trusted, onSkip: this.skip });
  }

  skills(): Skill[] {
    return listSkills(this.o.workspaceRoot, this.skip, { trusted: this.trusted });
  }

  /** The instruction files a session's prompt would carry (workspace-relative), for the listings. */
  instructionFiles(): Array<{ rel: string; file: string }> {
    const root = this.o.workspaceRoot;
    const multi = isMultiRoot(root);
    // Several folders: `rel` is `folder/path`, which resolves the way tools resolve it.
    return discoverContextFiles(root, { maxChars: 1, onSkip: this.skip, trusted: this.trusted }).map((f) => ({ rel: f.rel, file: multi ? resolveToolPath(root, f.rel).abs : path.join(root, ...f.rel.split('/')) }));
  }
}
