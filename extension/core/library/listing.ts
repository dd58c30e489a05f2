import type { WorkspaceLibrary } from './index';

/** One row of the listings (the Tools tree, `snowpea tools list`): plain text, escaped where it is shown. */
export interface LibraryRow {
  /** `/review`, `docs-writer`, `release`, `AGENTS.md`. */
  label: string;
  /** Where it is from: `.github/prompts/review.prompt.md`, `~/.claude/agents/x.md`. */
  origin: string;
  description?: string;
  /** An agent's tools when its file narrows them. */
  tools?: string;
  /** What of the file Snowpea does not do. */
  notes: string[];
  /** The file, to open it. */
  file: string;
}

export interface LibraryGroup {
  title: 'Commands' | 'Agents' | 'Skills' | 'Instruction files';
  rows: LibraryRow[];
}

/** The workspace's and the user's commands, agents, skills and instruction files, as the listings show them. */
export function libraryGroups(library: Pick<WorkspaceLibrary, 'commands' | 'agents' | 'skills' | 'instructionFiles'>): LibraryGroup[] {
  const agentTools = (a: { tools?: string[]; deniedTools?: string[] }) =>
    a.tools ? a.tools.join(', ') : a.deniedTools ? `all but ${a.deniedTools.join(', ')}` : undefined;
  return [
    {
      title: 'Commands',
      rows: library.commands().map((c) => ({
        label: `/${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ''}`,
        origin: c.origin,
        ...(c.description ? { description: c.description } : {}),
        notes: c.notes,
        file: c.file,
      })),
    },
    {
      title: 'Agents',
      rows: library.agents().map((a) => {
        const tools = agentTools(a);
        return { label: a.name, origin: a.origin, ...(a.description ? { description: a.description } : {}), ...(tools ? { tools } : {}), notes: a.notes, file: a.file };
      }),
    },
    {
      title: 'Skills',
      rows: library.skills().map((s) => ({ label: s.name, origin: `${s.origin}/${s.dir.split(/[\\/]/).pop()}/SKILL.md`, ...(s.description ? { description: s.description } : {}), notes: [], file: s.file })),
    },
    { title: 'Instruction files', rows: library.instructionFiles().map((f) => ({ label: f.rel, origin: f.rel, notes: [], file: f.file })) },
  ];
}
