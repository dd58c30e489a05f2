import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseFrontMatter, scalarMeta } from '../text/front-matter';
import { claudeHome, snowpeaHome } from '../settings/files';
import { readConfined, type ConfinedRead } from './confined-read';
import { isWithin } from './paths';
import { workspaceFolderOrigins } from './roots';

/** A skill: a folder holding SKILL.md whose front matter names and describes it. */
export interface Skill {
  name: string;
  description: string;
  /** The skill's folder and its SKILL.md. */
  dir: string;
  file: string;
  source: 'workspace' | 'user';
  /** The skills folder it was found in (skill_view reads SKILL.md again within it). */
  root: string;
  /** That folder as shown: `.claude/skills`, `~/.snowpea/skills`. */
  origin: string;
}

export interface ParsedSkillFile {
  /** The front matter's scalar values (strings, numbers and booleans as text); lists and maps are left out. */
  meta: Record<string, string>;
  body: string;
  /** Why the front matter could not be read ("not valid YAML (line 3, column 14): ..."); its block is still cut from the body. */
  problem?: string;
}

/**
 * Splits `---\n<YAML>\n---\nbody` (text/front-matter.ts: the core schema only, aliases capped;
 * a header YAML refuses is read as plain `key: value` lines, so a skill keeps its description).
 */
export function parseSkillFile(text: string): ParsedSkillFile {
  const { data, body, problem } = parseFrontMatter(text);
  return { meta: scalarMeta(data), body, ...(problem ? { problem } : {}) };
}

/** What of SKILL.md the index reads: the front matter is at the top. */
const INDEX_BYTES = 16 * 1024;
/** The most of SKILL.md that skill_view reads. */
export const SKILL_MAX_BYTES = 256 * 1024;

type Skip = (why: string) => void;

function realOrUndefined(p: string): string | undefined {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return undefined;
  }
}

/**
 * Reads a skill's SKILL.md when the skill folder's real path stays inside its skills folder's and
 * SKILL.md's inside the skill folder's, and SKILL.md is a regular file (M1): a repository cannot
 * make a skill out of a link to a file or folder elsewhere.
 */
export function readSkillFile(skill: Pick<Skill, 'dir' | 'file'>, skillsRoot: string, maxBytes: number): ConfinedRead {
  const rootReal = realOrUndefined(skillsRoot);
  const dirReal = realOrUndefined(skill.dir);
  if (!rootReal || !dirReal) return { kind: 'missing' };
  if (!isWithin(rootReal, dirReal) || dirReal === rootReal) return { kind: 'skipped', why: `skill folder ${skill.dir} links to ${dirReal}, outside ${rootReal}` };
  return readConfined(skill.file, dirReal, { maxBytes, label: skill.file });
}

/** The real skills folder of a source, when it stays inside its owner: the workspace for `.snowpea/skills`, the Snowpea home for user skills. */
function skillsRootIn(owner: string, skillsDir: string, onSkip?: Skip): string | undefined {
  const ownerReal = realOrUndefined(owner);
  const real = realOrUndefined(skillsDir);
  if (!ownerReal || !real) return undefined;
  if (isWithin(ownerReal, real)) return skillsDir;
  onSkip?.(`skills not read: ${skillsDir} links to ${real}, outside ${ownerReal}`);
  return undefined;
}

function skillsIn(at: SkillFolder, onSkip?: Skip): Skill[] {
  const root = at.dir;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(root, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: Skill[] = [];
  for (const e of entries) {
    if (!e.isDirectory() && !e.isSymbolicLink()) continue;
    const dir = path.join(root, e.name);
    const file = path.join(dir, 'SKILL.md');
    const r = readSkillFile({ dir, file }, root, INDEX_BYTES);
    if (r.kind === 'skipped') onSkip?.(`skill not read: ${r.why}`);
    if (r.kind !== 'ok') continue;
    const { meta, problem } = parseSkillFile(r.head.toString('utf8'));
    if (problem) onSkip?.(`skill front matter not read: ${file}: ${problem}; the skill is listed by its folder name, without a description`);
    out.push({ name: meta.name || e.name, description: (meta.description ?? '').replace(/\s+/g, ' ').trim(), dir, file, source: at.source, root, origin: at.origin });
  }
  return out;
}

/** A folder skills are read from. */
export interface SkillFolder {
  source: Skill['source'];
  dir: string;
  /** What its real path must stay inside: the workspace, the Snowpea home, Claude Code's user folder. */
  owner: string;
  origin: string;
  /** Read only in a trusted workspace (every workspace folder). */
  needsTrust: boolean;
}

/** The skills folder of a source: `<workspace>/.snowpea/skills` or `<snowpeaHome>/skills`. */
export function skillsRootOf(source: Skill['source'], workspaceRoot: string): string {
  return source === 'user' ? path.join(snowpeaHome(), 'skills') : path.join(workspaceRoot, '.snowpea', 'skills');
}

/**
 * Where skills come from, the weakest first (a later folder's skill wins over an earlier one's of
 * the same name): Claude Code's user skills, yours (`~/.snowpea/skills`), then the workspace's
 * `.agents/skills`, `.claude/skills` and `.snowpea/skills`.
 */
export function skillFolders(workspaceRoot: string): SkillFolder[] {
  // Every workspace folder's (multi-root), the primary last so its skills win; origins name the folder then (`api/.snowpea/skills`).
  const folders = workspaceFolderOrigins(workspaceRoot).reverse();
  const ws = (rel: string, needsTrust: boolean): SkillFolder[] =>
    folders.map((f) => ({ source: 'workspace', dir: path.join(f.path, ...rel.split('/')), owner: f.path, origin: `${f.prefix}${rel}`, needsTrust }));
  return [
    { source: 'user', dir: path.join(claudeHome(), 'skills'), owner: claudeHome(), origin: '~/.claude/skills', needsTrust: false },
    { source: 'user', dir: skillsRootOf('user', workspaceRoot), owner: snowpeaHome(), origin: '~/.snowpea/skills', needsTrust: false },
    ...ws('.agents/skills', true),
    ...ws('.claude/skills', true),
    ...ws('.snowpea/skills', true),
  ];
}

export interface ListSkillsOptions {
  /** Workspace Trust: false leaves out the workspace's skills (`.snowpea/skills`, `.claude/skills`, `.agents/skills`); the user's are read. Default: trusted (the CLI). */
  trusted?: boolean;
}

/**
 * Skills of the workspace and the user (skillFolders); a workspace skill wins over a user one of the same name. Sorted by name.
 * Skill folders and SKILL.md files whose real path leaves their skills folder are skipped (and reported to `onSkip`).
 */
export function listSkills(workspaceRoot: string, onSkip?: Skip, o: ListSkillsOptions = {}): Skill[] {
  const byName = new Map<string, Skill>();
  for (const f of skillFolders(workspaceRoot)) {
    if (f.needsTrust && o.trusted === false) continue;
    const root = skillsRootIn(f.owner, f.dir, onSkip);
    if (root) for (const s of skillsIn({ ...f, dir: root }, onSkip)) byName.set(s.name, s);
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** One line per skill for the system prompt: `- name: description`. Empty when there are none. */
export function skillsIndex(skills: Skill[]): string {
  return skills.map((s) => `- ${s.name}${s.description ? `: ${s.description}` : ''}`).join('\n');
}
