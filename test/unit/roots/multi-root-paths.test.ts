import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { environmentLine } from '../../../extension/core/context/system-prompt';
import { displayPath, resolveToolPath } from '../../../extension/core/tools/paths';
import { setWorkspaceRoots } from '../../../extension/core/tools/roots';
import { mentionRefusal } from '../../../extension/core/input/mention-path';
import { call, makeCtx, tempDir, writeTree } from '../tools/helpers';

describe('multi-root workspaces: path resolution and confinement', () => {
  const base = tempDir('snowpea-roots-');
  const web = path.join(base, 'web');
  const api = path.join(base, 'api');
  const outside = tempDir('snowpea-roots-outside-');
  writeTree(web, { 'src/app.ts': 'export const app = 1;\n', 'README.md': '# web\n' });
  writeTree(api, { 'src/server.ts': 'export const port = 8080;\n', 'notes.txt': 'api notes\n' });
  writeTree(outside, { 'secret.txt': 'secret\n' });
  // A link in the second folder that leads out of both folders, and one that leads into the first.
  fs.symlinkSync(outside, path.join(api, 'escape'));
  fs.symlinkSync(path.join(web, 'src'), path.join(api, 'web-src'));
  let forget: () => void = () => undefined;
  beforeEach(() => (forget = setWorkspaceRoots([{ path: web }, { path: api }])));
  afterEach(() => forget());

  it('resolves a relative path in the primary folder and names it folder/path', () => {
    const r = resolveToolPath(web, 'src/app.ts');
    assert.equal(r.real, path.join(web, 'src/app.ts'));
    assert.equal(r.inside, true);
    assert.equal(r.display, 'web/src/app.ts');
    assert.equal(resolveToolPath(web, '.').display, 'web');
  });

  it('resolves name/rest in the folder it names, the primary one too', () => {
    const r = resolveToolPath(web, 'api/src/server.ts');
    assert.equal(r.real, path.join(api, 'src/server.ts'));
    assert.equal(r.exists, true);
    assert.equal(r.inside, true);
    assert.equal(r.display, 'api/src/server.ts');
    assert.equal(resolveToolPath(web, 'web/src/app.ts').real, path.join(web, 'src/app.ts'));
    assert.equal(resolveToolPath(web, 'api').real, api);
  });

  it('takes an absolute path inside any folder as inside, and one outside every folder as outside', () => {
    const r = resolveToolPath(web, path.join(api, 'notes.txt'));
    assert.equal(r.inside, true);
    assert.equal(r.display, 'api/notes.txt');
    const out = resolveToolPath(web, path.join(outside, 'secret.txt'));
    assert.equal(out.inside, false);
    assert.equal(out.display, path.join(outside, 'secret.txt'));
    assert.equal(resolveToolPath(web, '../elsewhere.txt').inside, false);
  });

  it('refuses a link in one folder that leads out of both, and allows one that leads into the other', () => {
    const esc = resolveToolPath(web, 'api/escape/secret.txt');
    assert.equal(esc.inside, false);
    assert.equal(esc.real, path.join(outside, 'secret.txt'));
    assert.match(mentionRefusal(web, esc) ?? '', /outside the workspace/);
    const across = resolveToolPath(web, 'api/web-src/app.ts');
    assert.equal(across.inside, true);
    assert.equal(across.display, 'web/src/app.ts');
  });

  it('protects .vscode, .git and agent configs in every folder, and names the folder', () => {
    assert.match(resolveToolPath(web, 'api/.vscode/settings.json').protectedReason ?? '', /^api\/\.vscode\/settings\.json is inside the \.vscode folder/);
    assert.match(resolveToolPath(web, path.join(api, '.git', 'config')).protectedReason ?? '', /\.git folder/);
    assert.match(resolveToolPath(web, 'api/AGENTS.md').protectedReason ?? '', /instruction file/);
    assert.match(resolveToolPath(web, '.github/prompts/x.prompt.md').protectedReason ?? '', /^web\/\.github\/prompts/);
  });

  it('a workspace nobody registered keeps single-folder paths, display and prompt', () => {
    forget();
    assert.equal(resolveToolPath(web, 'src/app.ts').display, 'src/app.ts');
    assert.equal(resolveToolPath(web, 'api/src/server.ts').exists, false);
    assert.equal(resolveToolPath(web, path.join(api, 'notes.txt')).inside, false);
    assert.equal(displayPath(web, web), '.');
    assert.equal(environmentLine(web, 'linux'), `Workspace: ${web}\nPlatform: linux`);
  });

  it("lists every folder in the system prompt's environment", () => {
    const env = environmentLine(web, 'linux');
    assert.match(env, /^Workspace: 2 folders\./);
    assert.ok(env.includes(`- web: ${web}`) && env.includes(`- api: ${api}`), env);
    assert.match(env, /Platform: linux$/);
  });

  it('tools read, list, search and write across folders and name the folder in their output', async () => {
    const ctx = makeCtx(web, { settings: { 'approvals.autoApprove': ['write'] } });
    const read = await call(ctx, 'read_file', { path: 'api/src/server.ts' });
    assert.equal(read.error, undefined, read.content);
    assert.match(read.content, /8080/);
    assert.equal(ctx.asked.length, 0, 'a read in the second folder is inside the workspace: no question');
    const list = await call(ctx, 'list_dir', { path: 'api' });
    assert.match(list.content, /^api:\n/);
    assert.match(list.content, /src\//);
    const grep = await call(ctx, 'grep', { pattern: 'port', path: 'api' });
    assert.match(grep.content, /^api\/src\/server\.ts:1:export const port/m);
    const glob = await call(ctx, 'glob', { pattern: '**/*.ts', path: 'api' });
    assert.equal(glob.content.trim(), 'api/src/server.ts');
    const edit = await call(ctx, 'edit_file', { path: 'api/src/server.ts', old_string: '8080', new_string: '9090' });
    assert.equal(edit.error, undefined, edit.content);
    assert.equal(fs.readFileSync(path.join(api, 'src/server.ts'), 'utf8'), 'export const port = 9090;\n');
    const missing = await call(ctx, 'read_file', { path: 'api/src/serverr.ts' });
    assert.match(missing.content, /api\/src\/server\.ts/);
  });

  it('a read outside every folder still asks', async () => {
    const ctx = makeCtx(web, { decide: () => 'deny' });
    const r = await call(ctx, 'read_file', { path: 'api/escape/secret.txt' });
    assert.equal(r.error?.code, 'denied', r.content);
    assert.equal(ctx.asked.length, 1);
    assert.match(ctx.asked[0]!.reason ?? '', /is outside the workspace/);
    assert.ok(!r.content.includes('secret\n'));
  });
});
