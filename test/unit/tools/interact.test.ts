import assert from 'node:assert/strict';
import * as path from 'node:path';
import { listSkills, parseSkillFile, skillsIndex } from '../../../extension/core/tools/skills';
import type { Mode } from '../../../extension/core/tools/types';
import { call, makeCtx, tempDir, writeTree } from './helpers';

describe('tools: ask_user', () => {
  const ws = tempDir();

  it('asks through ctx.askUser with the choices and returns the answer, without a separate approval', async () => {
    const seen: unknown[] = [];
    const ctx = makeCtx(ws, { extra: { askUser: async (q, choices) => (seen.push([q, choices]), ' tabs ') } });
    const res = await call(ctx, 'ask_user', { question: 'Tabs or spaces?', choices: ['tabs', 'spaces'] });
    assert.equal(res.content, 'the user answered: tabs');
    assert.deepEqual(seen, [['Tabs or spaces?', ['tabs', 'spaces']]]);
    assert.equal(ctx.asked.length, 0);
  });

  it('fails clearly where there is no user to ask', async () => {
    const res = await call(makeCtx(ws), 'ask_user', { question: 'Which one?' });
    assert.equal(res.error?.code, 'unavailable');
    assert.match(res.content, /ask_user is not available here/);
  });

  it('validates choices', async () => {
    const res = await call(makeCtx(ws), 'ask_user', { question: 'Q', choices: ['only one'] });
    assert.equal(res.error?.code, 'invalid_arguments');
    assert.match(res.content, /choices: Too small/);
  });
});

describe('tools: set_mode', () => {
  const ws = tempDir();
  const withMode = (mode: Mode, decide?: 'allow' | 'deny') => {
    const changes: Mode[] = [];
    const ctx = makeCtx(ws, { mode, decide: decide ? () => decide : undefined, extra: { setMode: (m) => void changes.push(m) } });
    return { ctx, changes };
  };

  it('entering plan mode needs no approval and goes through the callback', async () => {
    const { ctx, changes } = withMode('code');
    const res = await call(ctx, 'set_mode', { mode: 'plan' });
    assert.match(res.content, /^mode is now plan: read-only/);
    assert.deepEqual(changes, ['plan']);
    assert.equal(ctx.asked.length, 0);
  });

  it('leaving a read-only mode for code asks the user; a refusal keeps the mode', async () => {
    const denied = withMode('plan', 'deny');
    const res = await call(denied.ctx, 'set_mode', { mode: 'code' });
    assert.equal(res.error?.code, 'denied');
    assert.deepEqual(denied.changes, []);
    assert.match(denied.ctx.asked[0].summary, /switch from plan mode to code mode/);
    const allowed = withMode('ask', 'allow');
    assert.match((await call(allowed.ctx, 'set_mode', { mode: 'code' })).content, /mode is now code/);
    assert.deepEqual(allowed.changes, ['code']);
  });

  it('rejects an unknown mode, reports no-ops and a missing callback', async () => {
    const bad = await call(makeCtx(ws), 'set_mode', { mode: 'yolo' });
    assert.equal(bad.error?.code, 'invalid_arguments');
    assert.match(bad.content, /mode: Invalid option: expected one of "code"\|"plan"\|"ask"/);
    const same = withMode('plan');
    assert.match((await call(same.ctx, 'set_mode', { mode: 'plan' })).content, /already in plan mode/);
    assert.equal((await call(makeCtx(ws), 'set_mode', { mode: 'ask' })).error?.code, 'unavailable');
  });
});

describe('tools: skills and skill_view', () => {
  const ws = tempDir();
  const home = tempDir('snowpea-home-');
  let saved: string | undefined;
  before(() => {
    saved = process.env.SNOWPEA_HOME;
    process.env.SNOWPEA_HOME = home;
    writeTree(ws, {
      '.snowpea/skills/release/SKILL.md': '---\nname: release\ndescription: "Cut a release: bump, tag, changelog"\n---\n# Release\nRun scripts/bump.sh first.\n',
      '.snowpea/skills/release/scripts/bump.sh': 'echo bump\n',
      '.snowpea/skills/nofront/SKILL.md': 'Just a body.\n',
      '.snowpea/skills/not-a-skill/README.md': 'no SKILL.md here\n',
    });
    writeTree(home, {
      'skills/release/SKILL.md': '---\nname: release\ndescription: the user copy (shadowed)\n---\nuser body\n',
      'skills/pdf/SKILL.md': "---\nname: pdf-tools\ndescription: Work with PDF files\n  across lines\n---\nUse pdftotext.\n",
    });
  });
  after(() => {
    if (saved === undefined) delete process.env.SNOWPEA_HOME;
    else process.env.SNOWPEA_HOME = saved;
  });

  it('parses front matter', () => {
    assert.deepEqual(parseSkillFile('---\nname: a\ndescription: \'it\'\'s\'\n---\nbody\n'), { meta: { name: 'a', description: "it's" }, body: 'body\n' });
    assert.deepEqual(parseSkillFile('no front matter'), { meta: {}, body: 'no front matter' });
  });

  it('lists workspace and user skills, the workspace copy winning, sorted, and renders a one-line index', () => {
    const skills = listSkills(ws);
    assert.deepEqual(skills.map((s) => [s.name, s.source]), [['nofront', 'workspace'], ['pdf-tools', 'user'], ['release', 'workspace']]);
    assert.equal(skills[2].file, path.join(ws, '.snowpea/skills/release/SKILL.md'));
    assert.equal(skillsIndex(skills), '- nofront\n- pdf-tools: Work with PDF files across lines\n- release: Cut a release: bump, tag, changelog');
    assert.equal(skillsIndex([]), '');
  });

  it('skill_view returns the body and the files in the skill folder', async () => {
    const res = await call(makeCtx(ws), 'skill_view', { name: 'release' });
    assert.equal(
      res.content,
      'skill release (.snowpea/skills/release/SKILL.md)\n\n# Release\nRun scripts/bump.sh first.\n\nFiles in the skill folder (read_file them when the instructions refer to them):\n.snowpea/skills/release/scripts/bump.sh',
    );
    assert.match((await call(makeCtx(ws), 'skill_view', { name: 'pdf-tools' })).content, /Use pdftotext\./);
  });

  it('an unknown skill is not_found and names close ones', async () => {
    const res = await call(makeCtx(ws), 'skill_view', { name: 'relase' });
    assert.equal(res.error?.code, 'not_found');
    assert.match(res.content, /Known skills: release/);
  });
});
