import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseDocument } from 'yaml';
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
  /** The front matter's scalar values (strings, numbers and booleans as text); lists and maps are left out. */
  meta: Record<string, string>;
  body: string;
  /** Why the front matter could not be read ("not valid YAML (line 3, column 14): ..."); its block is still cut from the body. */
  problem?: string;
}

const FRONT_MATTER = /^\ufeff?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * Splits `---\n<YAML>\n---\nbody`. The YAML is read by the `yaml` package with the core schema
 * only: no custom or YAML 1.1 tags are resolved (they stay plain text); aliases are capped (100, the package's default).
 */
export function parseSkillFile(text: string): ParsedSkillFile {
  const m = FRONT_MATTER.exec(text);
  if (!m) return { meta: {}, body: text };
  const body = text.slice(m[0].length);
  const doc = parseDocument(m[1], { schema: 'core', resolveKnownTags: false, uniqueKeys: true, prettyErrors: false, logLevel: 'silent' });
  const error = doc.errors[0];
  if (error) {
    // The block starts on line 2 of the file, after the opening ---.
    const before = m[1].slice(0, error.pos[0]).split('\n');
    // Skill files written by hand often have `description: Use when: ...`, which YAML refuses:
    // the top-level `key: value` lines are still read as plain text, so the skill keeps its description.
    const where = `not valid YAML (line ${before.length + 1}, column ${before[before.length - 1].length + 1}): ${error.message}`;
    const meta = plainLines(m[1]);
    return { meta, body, problem: Object.keys(meta).length ? `${where}; read as plain key: value lines` : where };
  }
  let value: unknown;
  try {
    value = doc.toJS();
  } catch (e) {
    return { meta: {}, body, problem: `not readable: ${(e as Error).message}` }; // too many aliases (a "billion laughs" block)
  }
  if (value === null || value === undefined) return { meta: {}, body };
  if (typeof value !== 'object' || Array.isArray(value)) return { meta: {}, body, problem: 'not a YAML mapping of key: value lines' };
  const meta: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') meta[k] = String(v);
  return { meta, body };
}

/** Top-level `key: value` lines of a block YAML refused, each value as written (one pair of surrounding quotes removed). */
function plainLines(block: string): Record<string, string> {
  const meta: Record<string, string> = {};
  for (const line of block.split(/\r?\n/)) {
    const kv = /^([A-Za-z_][\w-]*):[ \t]+(\S.*?)\s*$/.exec(line);
    if (!kv || kv[1] in meta) continue;
    meta[kv[1]] = kv[2].replace(/^(["'])(.*)\1$/, '$2');
  }
  return meta;
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
    const { meta, problem } = parseSkillFile(r.head.toString('utf8'));
    if (problem) onSkip?.(`skill front matter not read: ${file}: ${problem}; the skill is listed by its folder name, without a description`);
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
