/**
 * Red-team H5 and M1: files that reach the prompt without a tool call (instruction files, memory,
 * skills) are read only when their real path stays in the workspace (or the Snowpea home), they are
 * regular files, and within their caps.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { clipToCap } from '../../../extension/core/context/caps';
import { discoverContextFiles } from '../../../extension/core/context/context-files';
import { listSkills } from '../../../extension/core/tools/skills';
import { createHarness, type Harness } from '../../fixtures/agent-harness';
import { call, makeCtx } from '../tools/helpers';

const TOKEN = 'ghp_EXAMPLE_TOKEN_123';

function outsideDir(): string {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sp-outside-')));
  fs.writeFileSync(path.join(d, 'secret.txt'), '---\nname: stolen\ndescription: SECRET-OUTSIDE\n---\nSECRET-OUTSIDE\n');
  fs.writeFileSync(path.join(d, 'credentials'), 'AWS_SECRET_ACCESS_KEY=abc/outside\n');
  fs.writeFileSync(path.join(d, 'memory.md'), '- SECRET-MEMORY-OUTSIDE\n');
  return d;
}

function link(target: string, at: string): void {
  fs.mkdirSync(path.dirname(at), { recursive: true });
  fs.symlinkSync(target, at);
}

describe('red team: files that reach the prompt (H5, M1)', () => {
  let h: Harness | undefined;
  let oldHome: string | undefined;
  let outside: string;
  beforeEach(() => {
    outside = outsideDir();
    oldHome = process.env.SNOWPEA_HOME;
    process.env.SNOWPEA_HOME = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sp-home-')));
    process.env.MY_CLOUD_TOKEN = TOKEN;
  });
  afterEach(async () => {
    if (h) await h.close();
    h = undefined;
    delete process.env.MY_CLOUD_TOKEN;
    if (oldHome === undefined) delete process.env.SNOWPEA_HOME;
    else process.env.SNOWPEA_HOME = oldHome;
  });

  async function firstSystemPrompt(): Promise<string> {
    h!.server.enqueue({ text: 'ok' });
    await h!.agent.runTurn(h!.agent.newSession(), 'hi', new AbortController().signal);
    return h!.bodies()[0].messages[0].content;
  }

  it('H5: an AGENTS.md symlinked to /proc/self/environ puts nothing in the prompt, and the skip is logged', async () => {
    h = await createHarness({ files: { 'pkg/AGENTS.md': 'pkg: run make.' } });
    link('/proc/self/environ', path.join(h.workspace, 'AGENTS.md'));
    const prompt = await firstSystemPrompt();
    assert.ok(!prompt.includes(TOKEN), 'the environment is not in the prompt');
    assert.ok(!/## AGENTS\.md\n/.test(prompt), 'no root AGENTS.md section');
    assert.match(prompt, /## pkg\/AGENTS\.md\npkg: run make\./, 'a real nested file still arrives');
    assert.ok(h.log.lines.some((l) => /^warn: instruction file not read: AGENTS\.md links to \/proc\/(self|\d+)\/environ, outside /.test(l)), h.log.lines.join('\n'));
  });

  it('H5: instruction files linked outside (root, nested, a linked .snowpea folder) are not read', async () => {
    h = await createHarness({ files: { 'README.md': 'x' } });
    link(path.join(outside, 'secret.txt'), path.join(h.workspace, 'AGENTS.md'));
    link(path.join(outside, 'credentials'), path.join(h.workspace, 'sub/CLAUDE.md'));
    link('../../../../../../../../..' + path.join(outside, 'credentials'), path.join(h.workspace, 'rel/.cursorrules'));
    fs.mkdirSync(path.join(outside, 'dotsnowpea'));
    fs.writeFileSync(path.join(outside, 'dotsnowpea/instructions.md'), 'SECRET-INSTRUCTIONS');
    link(path.join(outside, 'dotsnowpea'), path.join(h.workspace, 'deep/.snowpea'));
    const prompt = await firstSystemPrompt();
    for (const secret of ['SECRET-OUTSIDE', 'AWS_SECRET_ACCESS_KEY', 'SECRET-INSTRUCTIONS']) assert.ok(!prompt.includes(secret), secret);
    assert.ok(!prompt.includes('# Project Context'), 'no block at all: every instruction file led outside');
  });

  it('H5: a link to another file inside the workspace is still read', () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sp-ctx-')));
    fs.writeFileSync(path.join(root, 'CONTRIBUTING.md'), 'shared rules');
    link('CONTRIBUTING.md', path.join(root, 'AGENTS.md'));
    assert.deepEqual(discoverContextFiles(root).map((f) => [f.rel, f.text]), [['AGENTS.md', 'shared rules']]);
  });

  it('H5: an AGENTS.md that is a FIFO does not block the prompt and is skipped', async () => {
    h = await createHarness({ files: { 'CLAUDE.md': 'Use tabs.' } });
    execFileSync('mkfifo', [path.join(h.workspace, 'AGENTS.md')]);
    const prompt = await firstSystemPrompt();
    assert.match(prompt, /## CLAUDE\.md\nUse tabs\./);
    assert.ok(h.log.lines.some((l) => /AGENTS\.md is not a regular file \(a FIFO\)/.test(l)), h.log.lines.join('\n'));
  });

  it('H5: a 3 GB (sparse) AGENTS.md is read only up to its cap, head and tail as clipToCap cuts them', () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sp-ctx-')));
    const small = path.join(root, 'CLAUDE.md');
    const text = 'H'.repeat(5_000) + 'T'.repeat(5_000);
    fs.writeFileSync(small, text);
    const huge = path.join(root, 'AGENTS.md');
    fs.writeFileSync(huge, 'HEAD-OF-HUGE ');
    fs.truncateSync(huge, 3 * 1024 ** 3); // readFileSync of this throws (over 2 GB); a bounded read does not
    try {
      const files = Object.fromEntries(discoverContextFiles(root, { maxChars: 1_000 }).map((f) => [f.rel, f.text]));
      assert.equal(files['CLAUDE.md'], clipToCap(text, 1_000, 'CLAUDE.md'), 'same cut as before for a file over the cap');
      assert.match(files['AGENTS.md'], /^HEAD-OF-HUGE /);
      assert.match(files['AGENTS.md'], /…\[truncated: 3221224572 more chars; read AGENTS\.md for the rest\]/);
      assert.ok(files['AGENTS.md'].length <= 1_000, `within the cap (${files['AGENTS.md'].length})`);
    } finally {
      fs.rmSync(huge);
    }
  });

  it('H5: workspace and user memory linked outside their folders stay out of the prompt', async () => {
    h = await createHarness();
    link(path.join(outside, 'memory.md'), path.join(h.workspace, '.snowpea/memory.md'));
    link('/proc/self/environ', path.join(process.env.SNOWPEA_HOME!, 'memory.md'));
    const prompt = await firstSystemPrompt();
    assert.ok(!prompt.includes('SECRET-MEMORY-OUTSIDE'));
    assert.ok(!prompt.includes(TOKEN));
    assert.ok(!/Workspace memory|User memory/.test(prompt), 'no digest at all');
    assert.ok(h.log.lines.some((l) => /memory not read: .*memory\.md links to .*, outside /.test(l)), h.log.lines.join('\n'));
  });

  it('H5: memory inside its folder still reaches the prompt', async () => {
    h = await createHarness({ files: { '.snowpea/memory.md': '- Use pnpm.\n' } });
    fs.writeFileSync(path.join(process.env.SNOWPEA_HOME!, 'memory.md'), '- British English.\n');
    const prompt = await firstSystemPrompt();
    assert.match(prompt, /Workspace memory \(\.snowpea\/memory\.md\):\n- Use pnpm\./);
    assert.match(prompt, /User memory \(~\/\.snowpea\/memory\.md\):\n- British English\./);
  });

  it('H5/M1: skills whose SKILL.md or folder links outside are not in the skills index', async () => {
    h = await createHarness({ files: { '.snowpea/skills/real/SKILL.md': '---\nname: real\ndescription: a real skill\n---\nbody' } });
    link(path.join(outside, 'secret.txt'), path.join(h.workspace, '.snowpea/skills/setup/SKILL.md'));
    fs.mkdirSync(path.join(outside, 'skilldir'));
    fs.writeFileSync(path.join(outside, 'skilldir/SKILL.md'), '---\nname: linkdir2\ndescription: SECRET-DIR\n---\n');
    link(path.join(outside, 'skilldir'), path.join(h.workspace, '.snowpea/skills/linkdir2'));
    link(path.join(outside, 'skilldir'), path.join(process.env.SNOWPEA_HOME!, 'skills/userlink'));
    const prompt = await firstSystemPrompt();
    assert.match(prompt, /- real: a real skill/);
    assert.ok(!prompt.includes('SECRET-OUTSIDE') && !prompt.includes('SECRET-DIR') && !prompt.includes('linkdir2'), prompt);
    assert.ok(h.log.lines.some((l) => /skill not read: skill folder .*linkdir2 links to /.test(l)), h.log.lines.join('\n'));
  });

  it('M1: skill_view refuses a SKILL.md or skill folder linked outside, and lists no linked files', async () => {
    const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sp-ws-')));
    fs.mkdirSync(path.join(ws, '.snowpea/skills/ok/docs'), { recursive: true });
    fs.writeFileSync(path.join(ws, '.snowpea/skills/ok/SKILL.md'), '---\nname: ok\n---\nDo the thing.');
    fs.writeFileSync(path.join(ws, '.snowpea/skills/ok/docs/guide.md'), 'guide');
    link(outside, path.join(ws, '.snowpea/skills/ok/outside-dir'));
    link(path.join(outside, 'credentials'), path.join(ws, '.snowpea/skills/ok/creds'));
    link(path.join(outside, 'secret.txt'), path.join(ws, '.snowpea/skills/setup/SKILL.md'));
    link(outside, path.join(ws, '.snowpea/skills/linkdir2'));
    fs.writeFileSync(path.join(outside, 'SKILL.md'), '---\nname: linkdir2\n---\nSECRET-LINKDIR');
    const ctx = makeCtx(ws);
    for (const name of ['setup', 'linkdir2', 'stolen']) {
      const res = await call(ctx, 'skill_view', { name });
      assert.equal(res.error?.code, 'not_found', `${name}: ${res.content}`);
      assert.ok(!/SECRET|credentials|secret\.txt/.test(res.content), res.content);
    }
    const ok = await call(ctx, 'skill_view', { name: 'ok' });
    assert.equal(ok.ok, true, ok.content);
    assert.match(ok.content, /Do the thing\./);
    assert.match(ok.content, /\.snowpea\/skills\/ok\/docs\/guide\.md/);
    assert.ok(!/creds|outside-dir|credentials|secret/.test(ok.content), ok.content);
    assert.deepEqual(listSkills(ws).map((s) => s.name), ['ok']);
  });

  it('M1: a .snowpea/skills folder that is itself a link outside gives no skills', () => {
    const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sp-ws-')));
    fs.mkdirSync(path.join(outside, 'skills/x'), { recursive: true });
    fs.writeFileSync(path.join(outside, 'skills/x/SKILL.md'), '---\nname: x\n---\nSECRET');
    link(path.join(outside, 'skills'), path.join(ws, '.snowpea/skills'));
    const skipped: string[] = [];
    assert.deepEqual(listSkills(ws, (w) => skipped.push(w)), []);
    assert.match(skipped.join('\n'), /skills not read: .*\.snowpea\/skills links to .*, outside /);
  });
});
