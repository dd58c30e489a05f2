import * as fs from 'node:fs';
import * as path from 'node:path';
import { snowpeaHome } from '../settings/files';

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

function skillsIn(root: string, source: Skill['source']): Skill[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(root, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: Skill[] = [];
  for (const e of entries) {
    const dir = path.join(root, e.name);
    const file = path.join(dir, 'SKILL.md');
    let text: string;
    try {
      if (!fs.statSync(dir).isDirectory()) continue;
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const { meta } = parseSkillFile(text);
    out.push({ name: meta.name || e.name, description: (meta.description ?? '').replace(/\s+/g, ' ').trim(), dir, file, source });
  }
  return out;
}

/** Skills of the workspace (`.snowpea/skills/`) and the user (`~/.snowpea/skills/`); a workspace skill wins over a user one of the same name. Sorted by name. */
export function listSkills(workspaceRoot: string): Skill[] {
  const byName = new Map<string, Skill>();
  for (const s of skillsIn(path.join(snowpeaHome(), 'skills'), 'user')) byName.set(s.name, s);
  for (const s of skillsIn(path.join(workspaceRoot, '.snowpea', 'skills'), 'workspace')) byName.set(s.name, s);
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** One line per skill for the system prompt: `- name: description`. Empty when there are none. */
export function skillsIndex(skills: Skill[]): string {
  return skills.map((s) => `- ${s.name}${s.description ? `: ${s.description}` : ''}`).join('\n');
}
