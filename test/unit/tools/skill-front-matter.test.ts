import assert from 'node:assert/strict';
import { listSkills, parseSkillFile } from '../../../extension/core/tools/skills';
import { call, makeCtx, tempDir, writeTree } from './helpers';

describe('tools: SKILL.md front matter read by the yaml package (issue 21)', () => {
  it('issue 21: reads the YAML the hand-written subset missed: block scalars, comments, escapes; lists and maps are left out', () => {
    const text = [
      '---',
      '# a comment',
      'name: pdf  # trailing comment',
      'description: >',
      '  Work with PDF files:',
      '  extract, merge.',
      'version: 2',
      'allowed-tools: [read_file, grep]',
      'metadata:',
      '  owner: docs',
      'note: "tab\\there"',
      '---',
      'body',
    ].join('\n');
    assert.deepEqual(parseSkillFile(text), {
      meta: { name: 'pdf', description: 'Work with PDF files: extract, merge.\n', version: '2', note: 'tab\there' },
      body: 'body',
    });
  });

  it('issue 21: resolves no custom or YAML 1.1 tags (they stay text) and stops an alias bomb', () => {
    const tagged = parseSkillFile('---\nname: !!js/function "function () { return 1 }"\ndescription: !!binary aGk=\nwhen: !!timestamp 2001-12-14\n---\nb');
    assert.deepEqual(tagged.meta, { name: 'function () { return 1 }', description: 'aGk=', when: '2001-12-14' });
    const rows = ['a: &a [x, x, x, x, x, x, x, x, x, x]', 'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]', 'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]', 'd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]'];
    const bomb = parseSkillFile(`---\n${rows.join('\n')}\n---\nbody`);
    assert.deepEqual([bomb.meta, bomb.body], [{}, 'body']);
    assert.match(bomb.problem ?? '', /^not readable: Excessive alias count/);
  });

  it('issue 21: malformed front matter gives a problem with its line and column, keeps the body, and still reads plain key: value lines', () => {
    assert.deepEqual(parseSkillFile('---\nname: x\ndescription: Use when: the user asks\n---\nbody\n'), {
      meta: { name: 'x', description: 'Use when: the user asks' },
      body: 'body\n',
      problem: 'not valid YAML (line 3, column 14): Nested mappings are not allowed in compact mappings; read as plain key: value lines',
    });
    assert.deepEqual(parseSkillFile('---\n  : [\n---\nb').meta, {}, 'nothing readable: no meta');
    assert.equal(parseSkillFile('---\nname: a\nname: b\n---\n').problem, 'not valid YAML (line 3, column 1): Map keys must be unique; read as plain key: value lines');
    assert.equal(parseSkillFile('---\n- a\n- b\n---\n').problem, 'not a YAML mapping of key: value lines');
  });

  it('issue 21: a skill whose front matter YAML refuses keeps its plain description; the file is named in the log and in skill_view', async () => {
    const ws = tempDir();
    const home = tempDir('snowpea-home-');
    const saved = process.env.SNOWPEA_HOME;
    process.env.SNOWPEA_HOME = home;
    try {
      writeTree(ws, { '.snowpea/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: Use when: shipping\n---\n# Deploy\nRun make ship.\n' });
      const skipped: string[] = [];
      const skills = listSkills(ws, (why) => skipped.push(why));
      assert.deepEqual(skills.map((s) => [s.name, s.description]), [['deploy', 'Use when: shipping']]);
      assert.equal(skipped.length, 1);
      assert.match(skipped[0], /^skill front matter not read: .*[/\\]\.snowpea[/\\]skills[/\\]deploy[/\\]SKILL\.md: not valid YAML \(line 3, column 14\): Nested mappings/);
      const res = await call(makeCtx(ws), 'skill_view', { name: 'deploy' });
      assert.equal(
        res.content,
        'skill deploy (.snowpea/skills/deploy/SKILL.md)\n[the front matter of .snowpea/skills/deploy/SKILL.md was not read: not valid YAML (line 3, column 14): Nested mappings are not allowed in compact mappings; read as plain key: value lines]\n\n# Deploy\nRun make ship.',
      );
    } finally {
      if (saved === undefined) delete process.env.SNOWPEA_HOME;
      else process.env.SNOWPEA_HOME = saved;
    }
  });
});
