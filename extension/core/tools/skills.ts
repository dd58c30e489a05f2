import * as fs from 'node:fs';
import * as path from 'node:path';
import { snowpeaHome } from '../settings/files';
import { readConfined, type ConfinedRead } from './confined-read';
import { isWithin } from './paths';

/** A skill: a folder holding SKILL.md whose front matter names and describes it. */
export interface Skill {
  name: string;
  description: string;
  /** The skill's folder and its SKILL.md. */
  dir: string;
  file: string;
  source: 'workspace' | 'user';
}

export interface ParsedSkillFile {
  meta: Record<string, string>;
  body: string;
}

function unquote(v: string): string {
  const t = v.trim();
  if (t.length >= 2 && ((t[0] === '"' && t.endsWith('"')) || (t[0] === "'" && t.endsWith("'")))) {
    return t[0] === '"' ? (JSON.parse(t) as string) : t.slice(1, -1).replace(/''/g, "'");
  }
  return t;
}

/** Splits `---\nkey: value\n---\nbody` (simple YAML front matter: one `key: value` per line). */
export function parseSkillFile(text: string): ParsedSkillFile {
  const m = /^\ufeff?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!m) return { meta: {}, body: text };
  const meta: Record<string, string> = {};
  let last: string | undefined;
  for (const line of m[1].split(/\r?\n/)) {
    const kv = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (!kv) {
      // An indented line continues the previous plain value (YAML folding).
      if (last && /^\s+\S/.test(line)) meta[last] = `${meta[last]} ${line.trim()}`.trim();
      continue;
    }
    last = kv[1];
    try {
      meta[kv[1]] = unquote(kv[2]);
    } catch {
      meta[kv[1]] = kv[2].trim();
    }
  }
  return { meta, body: text.slice(m[0].length) };
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

function skillsIn(root: string, source: Skill['source'], onSkip?: Skip): Skill[] {
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
    const { meta } = parseSkillFile(r.head.toString('utf8'));
    out.push({ name: meta.name || e.name, description: (meta.description ?? '').replace(/\s+/g, ' ').trim(), dir, file, source });
  }
  return out;
}

/** The skills folder of a source: `<workspace>/.snowpea/skills` or `<snowpeaHome>/skills`. */
export function skillsRootOf(source: Skill['source'], workspaceRoot: string): string {
  return source === 'user' ? path.join(snowpeaHome(), 'skills') : path.join(workspaceRoot, '.snowpea', 'skills');
}

/**
 * Skills of the workspace (`.snowpea/skills/`) and the user (`~/.snowpea/skills/`); a workspace skill wins over a user one of the same name. Sorted by name.
 * Skill folders and SKILL.md files whose real path leaves their skills folder are skipped (and reported to `onSkip`).
 */
export function listSkills(workspaceRoot: string, onSkip?: Skip): Skill[] {
  const byName = new Map<string, Skill>();
  const user = skillsRootIn(snowpeaHome(), skillsRootOf('user', workspaceRoot), onSkip);
  if (user) for (const s of skillsIn(user, 'user', onSkip)) byName.set(s.name, s);
  const ws = skillsRootIn(workspaceRoot, skillsRootOf('workspace', workspaceRoot), onSkip);
  if (ws) for (const s of skillsIn(ws, 'workspace', onSkip)) byName.set(s.name, s);
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** One line per skill for the system prompt: `- name: description`. Empty when there are none. */
export function skillsIndex(skills: Skill[]): string {
  return skills.map((s) => `- ${s.name}${s.description ? `: ${s.description}` : ''}`).join('\n');
}
