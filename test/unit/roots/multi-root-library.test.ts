import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applyCaps, discoverContextFiles, renderProjectContext } from '../../../extension/core/context/context-files';
import { WorkspaceLibrary } from '../../../extension/core/library';
import { setWorkspaceRoots } from '../../../extension/core/tools/roots';
import { libraryWorld, tempDir, writeFiles } from '../library/world';

describe('multi-root workspaces: instruction files, skills, prompt files and agents from every folder', () => {
  const world = libraryWorld();
  let web: string;
  let api: string;
  let forget: () => void = () => undefined;
  beforeEach(() => {
    web = path.join(world.ws, 'web');
    api = path.join(world.ws, 'api');
    writeFiles(web, {
      'AGENTS.md': 'Web: use pnpm.\n',
      '.github/prompts/web-check.prompt.md': '---\ndescription: check the web app\n---\nCheck it.\n',
    });
    writeFiles(api, {
      'AGENTS.md': 'API: run make test.\n',
      'src/CLAUDE.md': 'API src rules.\n',
      '.github/copilot-instructions.md': 'API copilot rules.\n',
      '.github/prompts/api-deploy.prompt.md': '---\ndescription: deploy the api\n---\nDeploy.\n',
      '.snowpea/skills/migrate/SKILL.md': '---\nname: migrate\ndescription: run a database migration\n---\nSteps.\n',
      '.github/agents/dba.agent.md': '---\ndescription: database expert\n---\nYou know SQL.\n',
    });
    forget = setWorkspaceRoots([{ path: web }, { path: api }]);
  });
  afterEach(() => forget());

  it('reads the instruction files of both folders, each named folder/path', () => {
    const files = discoverContextFiles(web);
    assert.deepEqual(
      files.map((f) => f.rel),
      ['api/.github/copilot-instructions.md', 'api/AGENTS.md', 'web/AGENTS.md', 'api/src/CLAUDE.md'],
    );
    const block = renderProjectContext(applyCaps(files, { perFile: 20_000, block: 8_000 }))!;
    assert.match(block, /## web\/AGENTS\.md\nWeb: use pnpm\./);
    assert.match(block, /## api\/AGENTS\.md\nAPI: run make test\./);
  });

  it('applies the per-file cap to each folder and the trust rule to each (peer files left out untrusted)', () => {
    writeFiles(web, { 'AGENTS.md': 'x'.repeat(5000) });
    const capped = discoverContextFiles(web, { maxChars: 1000 }).find((f) => f.rel === 'web/AGENTS.md')!;
    assert.match(capped.text, /read web\/AGENTS\.md for the rest/);
    assert.ok(!discoverContextFiles(web, { trusted: false }).some((f) => f.rel === 'api/.github/copilot-instructions.md'));
  });

  it('does not follow a link in the second folder out of it', () => {
    const outside = tempDir('sp-roots-out-');
    writeFiles(outside, { 'AGENTS.md': 'planted\n' });
    fs.rmSync(path.join(api, 'AGENTS.md'));
    fs.symlinkSync(path.join(outside, 'AGENTS.md'), path.join(api, 'AGENTS.md'));
    const skipped: string[] = [];
    const files = discoverContextFiles(web, { onSkip: (w) => skipped.push(w) });
    assert.ok(!files.some((f) => f.text.includes('planted')));
    assert.ok(skipped.some((w) => /outside/.test(w)), skipped.join('\n'));
  });

  it('lists prompt files, skills and agents of both folders with the folder in their origin', () => {
    const lib = new WorkspaceLibrary({ workspaceRoot: web });
    const commands = lib.commands().map((c) => `${c.name} ${c.origin}`);
    assert.deepEqual(commands, ['api-deploy api/.github/prompts/api-deploy.prompt.md', 'web-check web/.github/prompts/web-check.prompt.md']);
    const skill = lib.skills().find((s) => s.name === 'migrate');
    assert.ok(skill, 'the second folder\'s skill is listed');
    assert.equal(skill.file, path.join(api, '.snowpea/skills/migrate/SKILL.md'));
    assert.deepEqual(lib.agents().map((a) => a.name), ['dba']);
    assert.deepEqual(lib.instructionFiles().find((f) => f.rel === 'api/AGENTS.md')?.file, path.join(api, 'AGENTS.md'));
    // Untrusted: neither folder's prompt files.
    assert.deepEqual(new WorkspaceLibrary({ workspaceRoot: web, trusted: () => false }).commands(), []);
  });
});
