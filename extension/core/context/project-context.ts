import type { ToolCall } from '../conversation/messages';
import type { Session } from '../conversation/session';
import type { Logger } from '../log';
import type { PromptPart } from './system-prompt';
import { modelCapabilities } from '../model/capabilities';
import type { Settings } from '../settings/schema';
import { MEMORY_INSTRUCTIONS, memoryDigest } from '../tools/memory/memory-store';
import { listSkills, skillsIndex, type Skill } from '../tools/skills';
import type { ToolResult } from '../tools/types';
import { contextCaps } from './caps';
import { applyCaps, discoverContextFiles, renderProjectContext, type ContextFile } from './context-files';
import { NestedContextAttacher } from './nested-attach';
import { SessionStates } from '../conversation/session-states';

export interface ProjectContextOptions {
  settings(): Settings;
  /** Where skipped files (a symlinked AGENTS.md leading outside the workspace) are reported, once each. */
  logger?: Logger;
  /** Skills, custom agents and Workspace Trust (the other agents' files are read only when trusted); absent: Snowpea's own files, trusted. */
  library?: { skills(): Skill[]; agents(): Array<{ name: string; description: string }>; readonly trusted: boolean };
  /** Where the per-session files are kept (the agent's; default: its own). */
  states?: SessionStates;
}

/**
 * What a session knows up front about the project: the skills index, the capped
 * `# Project Context` block, the memory digest and when to save memories. Lean subagents get only the root instruction
 * files; their nested files are attached to tool results when a tool touches that folder.
 */
export class ProjectContext {
  private readonly attacher: NestedContextAttacher;
  /** Discovered files per session, refreshed once per turn (the system prompt is built once per turn). */
  private readonly files: Map<string, ContextFile[]>;

  /** Skip messages already logged: the prompt is rebuilt every turn, the log says it once. */
  private readonly logged = new Set<string>();

  constructor(private readonly opts: ProjectContextOptions) {
    const states = opts.states ?? new SessionStates();
    this.files = states.slice('instruction files');
    this.attacher = new NestedContextAttacher(states.slice('nested instructions attached'));
  }

  private readonly skip = (why: string): void => {
    if (this.logged.has(why)) return;
    this.logged.add(why);
    this.opts.logger?.warn(why);
  };

  private lean(session: Session): boolean {
    return session.isSubagent && this.opts.settings()['agents.childContext'] === 'lean';
  }

  private caps() {
    const s = this.opts.settings();
    return contextCaps(modelCapabilities(s['model.name'], s).contextWindow, s['agent.contextFileMaxChars'], s['agent.contextFilesMaxChars']);
  }

  parts(session: Session): PromptPart[] {
    const s = this.opts.settings();
    const lean = this.lean(session);
    const parts: PromptPart[] = [];
    if (!lean) {
      const library = this.opts.library;
      const index = skillsIndex(library ? library.skills() : listSkills(session.workspaceRoot, this.skip));
      if (index) parts.push({ name: 'skills', text: `Skills (load one with skill_view when its description fits the task):\n${index}` });
      const agents = session.isSubagent ? [] : (library?.agents() ?? []);
      if (agents.length) parts.push({ name: 'agents', text: `Agents (delegate_task agent names, besides general, explore and reviewer):\n${agents.map((a) => `- ${a.name}${a.description ? `: ${a.description}` : ''}`).join('\n')}` });
      const digest = memoryDigest(session.workspaceRoot, this.skip);
      parts.push({ name: 'memory', text: digest ? `${MEMORY_INSTRUCTIONS}\n\n${digest}` : MEMORY_INSTRUCTIONS });
    }
    if (s['agent.ignoreContextFiles']) return parts;
    const files = discoverContextFiles(session.workspaceRoot, { maxChars: this.caps().perFile, onSkip: this.skip, trusted: this.opts.library?.trusted ?? true });
    this.files.set(session.id, files);
    const upFront = lean ? files.filter((f) => f.depth === 0) : files;
    const block = renderProjectContext(applyCaps(upFront, this.caps()));
    if (block) parts.push({ name: 'project-context', text: block });
    return parts;
  }

  /** Appends nested instruction files a lean child has not seen yet when a tool touches their folder. */
  decorate(session: Session, call: ToolCall, result: ToolResult): ToolResult {
    if (!this.lean(session) || this.opts.settings()['agent.ignoreContextFiles']) return result;
    const pending = (this.files.get(session.id) ?? []).filter((f) => f.depth > 0);
    const extra = this.attacher.attachmentFor(session.id, call, session.workspaceRoot, pending, this.caps().perFile);
    return extra ? { ...result, content: `${result.content}\n\n${extra}` } : result;
  }
}
