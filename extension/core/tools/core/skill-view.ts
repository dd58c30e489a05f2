import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { displayPath, realRoot } from '../paths';
import { walkFiles } from '../search/walk';
import { listSkills, parseSkillFile, readSkillFile, SKILL_MAX_BYTES, type Skill } from '../skills';
import { closeNames } from '../suggest';
import { defineTool, errorResult, okResult } from '../types';
import { TOOL } from '../names';

const MAX_LISTED = 50;

const input = z.strictObject({
  name: z.string().min(1).describe('Skill name.'),
});

/** The skill folder's files (not SKILL.md), without following symlinks, at most MAX_LISTED. */
async function skillFiles(skill: Skill, workspaceRoot: string, signal: AbortSignal): Promise<string[]> {
  const dir = fs.realpathSync.native(skill.dir);
  const root = skill.source === 'workspace' ? realRoot(workspaceRoot) : dir;
  const out: string[] = [];
  for await (const abs of walkFiles(dir, { root, signal })) {
    if (abs === path.join(dir, 'SKILL.md')) continue;
    out.push(displayPath(workspaceRoot, abs));
    if (out.length >= MAX_LISTED) break;
  }
  return out.sort();
}

export const skillViewTool = defineTool({
  name: TOOL.skill_view,
  traits: { readOnly: true, repeat: 'plain', subagents: true, images: false, prune: 'recent-views' },
  group: 'core',
  permission: 'read',
  deferred: false,
  summary: 'Load a skill: its SKILL.md instructions.',
  description:
    'Load a skill listed in the system prompt: its SKILL.md instructions and its files. Load one when its description fits the task.',
  input,
  describeCall: (a) => `skill ${a.name}`,
  async run(args, ctx) {
    const skills = listSkills(ctx.workspaceRoot, undefined, { trusted: ctx.workspaceTrusted !== false });
    const skill = skills.find((s) => s.name === args.name) ?? skills.find((s) => s.name.toLowerCase() === args.name.toLowerCase());
    if (!skill) {
      const near = closeNames(args.name, skills.map((s) => s.name));
      const known = skills.length ? ` Known skills: ${(near.length ? near : skills.map((s) => s.name).slice(0, 20)).join(', ')}.` : ' No skills are installed.';
      return errorResult('not_found', `there is no skill named ${JSON.stringify(args.name)}.${known}`);
    }
    // Read again with the same checks: the folder may have changed since it was listed.
    const r = readSkillFile(skill, skill.root, SKILL_MAX_BYTES);
    if (r.kind !== 'ok') return errorResult('policy_blocked', `skill ${skill.name} cannot be loaded: ${r.kind === 'skipped' ? r.why : `${displayPath(ctx.workspaceRoot, skill.file)} is gone`}`);
    const { body, problem } = parseSkillFile(r.head.toString('utf8'));
    const cut = r.truncated ? `\n\n[SKILL.md is ${r.size} bytes; only the first ${SKILL_MAX_BYTES} are shown]` : '';
    const files = await skillFiles(skill, ctx.workspaceRoot, ctx.signal);
    const shown = displayPath(ctx.workspaceRoot, skill.file);
    const head = `skill ${skill.name} (${shown})${problem ? `\n[the front matter of ${shown} was not read: ${problem}]` : ''}`;
    const more = files.length ? `\n\nFiles in the skill folder (read_file them when the instructions refer to them):\n${files.join('\n')}` : '';
    return okResult(`${head}\n\n${body.trim()}${cut}${more}`);
  },
});
