import * as fs from 'node:fs';
import { z } from 'zod';
import { displayPath } from '../paths';
import { listSkills, parseSkillFile } from '../skills';
import { closeNames } from '../suggest';
import { defineTool, errorResult, okResult } from '../types';

const input = z.strictObject({
  name: z.string().min(1).describe('The skill name, as listed in the skills index.'),
});

export const skillViewTool = defineTool({
  name: 'skill_view',
  group: 'core',
  permission: 'read',
  deferred: false,
  summary: 'Load a skill: its SKILL.md instructions.',
  description:
    'Load a skill by name and return its instructions (the body of its SKILL.md) and the files in its folder. ' +
    'Skills are listed by name and description in the system prompt; load one when its description fits the task.',
  input,
  describeCall: (a) => `skill ${a.name}`,
  async run(args, ctx) {
    const skills = listSkills(ctx.workspaceRoot);
    const skill = skills.find((s) => s.name === args.name) ?? skills.find((s) => s.name.toLowerCase() === args.name.toLowerCase());
    if (!skill) {
      const near = closeNames(args.name, skills.map((s) => s.name));
      const known = skills.length ? ` Known skills: ${(near.length ? near : skills.map((s) => s.name).slice(0, 20)).join(', ')}.` : ' No skills are installed.';
      return errorResult('not_found', `there is no skill named ${JSON.stringify(args.name)}.${known}`);
    }
    const { body } = parseSkillFile(await fs.promises.readFile(skill.file, 'utf8'));
    const files = (await fs.promises.readdir(skill.dir, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile() && !(e.name === 'SKILL.md' && e.parentPath === skill.dir))
      .map((e) => displayPath(ctx.workspaceRoot, `${e.parentPath}/${e.name}`))
      .sort()
      .slice(0, 50);
    const head = `skill ${skill.name} (${displayPath(ctx.workspaceRoot, skill.file)})`;
    const more = files.length ? `\n\nFiles in the skill folder (read_file them when the instructions refer to them):\n${files.join('\n')}` : '';
    return okResult(`${head}\n\n${body.trim()}${more}`);
  },
});
