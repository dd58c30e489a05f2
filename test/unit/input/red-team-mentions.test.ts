/**
 * Red-team 2026-12-04 N3: `@path` mentions and `--attach` take read_file's path rules. A repository
 * ships `SETUP.md -> ../fakehome/.aws/credentials` and asks the user to "follow @SETUP.md": the
 * credentials must not be inlined.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { composeUserPrompt } from '../../../extension/core/input/compose';

const noStore = {
  addFile: () => Promise.reject(new Error('no image expected')),
  addBytes: () => Promise.reject(new Error('no image expected')),
  addBase64: () => Promise.reject(new Error('no image expected')),
};

const textOf = (content: unknown) => (typeof content === 'string' ? content : (content as Array<{ text?: string }>).map((p) => p.text ?? '').join('\n'));

describe('red team 2026-12-04: @path and --attach follow the path rules of read_file (N3)', () => {
  let scratch: string;
  let ws: string;
  let savedHome: string | undefined;
  beforeEach(() => {
    scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sp-n3-')));
    ws = path.join(scratch, 'ws');
    fs.mkdirSync(path.join(scratch, 'fakehome/.aws'), { recursive: true });
    fs.writeFileSync(path.join(scratch, 'fakehome/.aws/credentials'), 'aws_secret_access_key=FAKEHOMEKEY\n');
    fs.mkdirSync(path.join(scratch, 'outside'));
    fs.writeFileSync(path.join(scratch, 'outside/secret.txt'), 'SECRET-OUTSIDE\n');
    fs.writeFileSync(path.join(scratch, 'outside/other.txt'), 'OTHER-OUTSIDE\n');
    fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'src/a.txt'), 'hello\n');
    savedHome = process.env.HOME;
    process.env.HOME = path.join(scratch, 'fakehome');
  });
  afterEach(() => {
    process.env.HOME = savedHome;
    fs.rmSync(scratch, { recursive: true, force: true });
  });
  const compose = (text: string, attach?: string[]) => composeUserPrompt({ text, attach }, { workspaceRoot: ws, store: noStore, readMaxLines: 2000 });

  it('N3 (X10): @SETUP.md linking to ~/.aws/credentials is not inlined; the note says why', async () => {
    fs.symlinkSync('../fakehome/.aws/credentials', path.join(ws, 'SETUP.md'));
    const c = await compose('please follow @SETUP.md');
    assert.doesNotMatch(textOf(c.content), /FAKEHOMEKEY/);
    assert.deepEqual(c.mentions.map((m) => m.kind), ['refused']);
    assert.match(c.problems[0], /^\[@SETUP\.md: not attached: it links to \S+\/fakehome\/\.aws\/credentials, outside the workspace, which holds credentials; not followed \(.*read_file asks you first\)\]$/);
  });

  it('N3 (X10): --attach SETUP.md is refused the same way', async () => {
    fs.symlinkSync('../fakehome/.aws/credentials', path.join(ws, 'SETUP.md'));
    const c = await compose('set me up', ['SETUP.md']);
    assert.doesNotMatch(textOf(c.content), /FAKEHOMEKEY/);
    assert.deepEqual(c.mentions.map((m) => m.kind), ['refused']);
  });

  it('N3: a workspace link (or linked folder) leading out of the workspace is not followed, for @ and --attach', async () => {
    fs.symlinkSync('../outside/secret.txt', path.join(ws, 'NOTES.md'));
    fs.symlinkSync('../outside', path.join(ws, 'docs'));
    const c = await compose('read @NOTES.md and @docs/other.txt', ['docs/secret.txt']);
    assert.doesNotMatch(textOf(c.content), /SECRET-OUTSIDE|OTHER-OUTSIDE/);
    assert.deepEqual(c.mentions.map((m) => m.kind), ['refused', 'refused', 'refused']);
    assert.match(c.problems[0], new RegExp(`links to ${path.join(scratch, 'outside/secret.txt').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, outside the workspace; not followed`));
  });

  it('N3: a credentials file the user names outright (@~/.aws/credentials, an absolute path) is refused too', async () => {
    const c = await compose('use @~/.aws/credentials', [path.join(scratch, 'fakehome/.aws/credentials')]);
    assert.doesNotMatch(textOf(c.content), /FAKEHOMEKEY/);
    assert.deepEqual(c.mentions.map((m) => m.kind), ['refused', 'refused']);
  });

  it('N3: workspace files, links inside the workspace and outside files the user names themselves still attach', async () => {
    fs.symlinkSync('src/a.txt', path.join(ws, 'A.md'));
    const c = await compose('compare @src/a.txt and @A.md', [path.join(scratch, 'outside/secret.txt')]);
    assert.deepEqual(c.mentions.map((m) => m.kind), ['file', 'file']);
    assert.match(textOf(c.content), /SECRET-OUTSIDE/, 'an absolute path the user typed is theirs to attach');
    assert.match(textOf(c.content), /<file path="src\/a\.txt"/);
  });
});
