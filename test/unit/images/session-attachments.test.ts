import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AttachmentStore } from '../../../extension/core/images/store';
import { createHarness, type Harness } from '../../fixtures/agent-harness';
import { makePng } from '../../fixtures/images/make';

const signal = () => new AbortController().signal;
const b64 = (png: Buffer) => png.toString('base64');
const isChild = (body: any) => /You have \d+ tool rounds for this task\./.test(body.messages[0].content);

describe('images: attachment files when a session is deleted', () => {
  let h: Harness;
  afterEach(async () => h && (await h.close()));

  const only = makePng({ width: 30, height: 20 });
  const shared = makePng({ width: 50, height: 40 });

  /** A session whose first message carries the given pasted images. */
  async function sessionWith(text: string, images: Array<[string, Buffer]>) {
    const composed = await h.agent.compose({ text, images: images.map(([name, png]) => ({ name, mime: 'image/png', dataBase64: b64(png) })) });
    const s = h.agent.newSession();
    h.server.enqueue({ text: 'seen' });
    await h.agent.runTurn(s, composed.content, signal());
    return { session: s, ids: composed.images.map((i) => i.imageId) };
  }

  const filesOf = (id: string) => fs.readdirSync(h.agent.attachments.dir).filter((f) => f.startsWith(id));

  it('deletes the files only the deleted session referenced; an image another session shows stays until that one goes too', async () => {
    h = await createHarness();
    const a = await sessionWith('first', [['only.png', only], ['shared.png', shared]]);
    const b = await sessionWith('second', [['same picture.png', shared]]);
    const [onlyId, sharedId] = a.ids;
    assert.equal(b.ids[0], sharedId, 'the store keys images by content, so both sessions hold the same file');
    assert.equal(filesOf(onlyId).length, 1);

    assert.equal(await h.agent.deleteSession(a.session.id), true);
    assert.equal(h.store.getSession(a.session.id), null);
    assert.deepEqual(filesOf(onlyId), [], 'the image only the deleted session held is gone');
    assert.equal(h.agent.attachments.get(onlyId), undefined, 'and out of index.json');
    assert.equal(filesOf(sharedId).length, 1, 'the shared image stays');

    h.server.enqueue({ text: 'still there' });
    await h.agent.runTurn(b.session, 'again?', signal());
    assert.equal(h.bodies().at(-1).messages[1].content[1].image_url.url, `data:image/png;base64,${b64(shared)}`);

    assert.equal(await h.agent.deleteSession(b.session.id), true);
    assert.deepEqual(filesOf(sharedId), []);
    assert.deepEqual(fs.readdirSync(h.agent.attachments.dir), ['index.json']);
    assert.equal(await h.agent.deleteSession(b.session.id), false, 'an unknown session: false, nothing else happens');
  });

  it('the references live in index.json beside the images, so another process (or window) sees them', async () => {
    h = await createHarness();
    const a = await sessionWith('first', [['only.png', only]]);
    const index = JSON.parse(fs.readFileSync(path.join(h.agent.attachments.dir, 'index.json'), 'utf8'));
    assert.deepEqual(index.images[a.ids[0]].sessions, [a.session.id]);
  });

  it('images of delegated child sessions go with their parent', async () => {
    h = await createHarness({ files: {} });
    fs.writeFileSync(path.join(h.workspace, 'child.png'), only);
    h.server.setResponder((body) => {
      const tools = body.messages.filter((m: any) => m.role === 'tool').length;
      if (isChild(body)) return tools ? { text: 'looked' } : { toolCalls: [{ name: 'view_image', arguments: '{"path":"child.png"}' }] };
      return tools ? { text: 'done' } : { toolCalls: [{ name: 'delegate_task', arguments: JSON.stringify({ task: 'Look at child.png.' }) }] };
    });
    const s = h.agent.newSession();
    await h.agent.runTurn(s, 'delegate it', signal());
    const [child] = h.store.childSessions(s.id);
    assert.ok(child, 'a child session was stored');
    const [id] = Object.keys(JSON.parse(fs.readFileSync(path.join(h.agent.attachments.dir, 'index.json'), 'utf8')).images);
    assert.equal(filesOf(id).length, 1);
    assert.equal(await h.agent.deleteSession(s.id), true);
    assert.deepEqual(filesOf(id), [], "the child's view_image picture is gone with the parent");
  });

  it('a file that cannot be deleted is logged, and the session is deleted anyway', async () => {
    h = await createHarness();
    const a = await sessionWith('first', [['only.png', only]]);
    const file = h.agent.attachments.pathOf(a.ids[0])!;
    fs.rmSync(file);
    fs.mkdirSync(file);
    fs.writeFileSync(path.join(file, 'in the way'), 'x');
    assert.equal(await h.agent.deleteSession(a.session.id), true);
    assert.equal(h.store.getSession(a.session.id), null);
    const warning = h.log.lines.find((l) => l.startsWith('warn:') && l.includes(path.basename(file)));
    assert.ok(warning, `a warning names the file: ${h.log.lines.join(' | ')}`);
  });

  it('images stored before references were kept (no sessions in index.json) are never deleted', async () => {
    h = await createHarness();
    const a = await sessionWith('first', [['only.png', only]]);
    const indexFile = path.join(h.agent.attachments.dir, 'index.json');
    const index = JSON.parse(fs.readFileSync(indexFile, 'utf8'));
    delete index.images[a.ids[0]].sessions;
    fs.writeFileSync(indexFile, JSON.stringify(index));
    fs.utimesSync(indexFile, new Date(), new Date(Date.now() + 5000));
    assert.equal(await h.agent.deleteSession(a.session.id), true);
    assert.equal(filesOf(a.ids[0]).length, 1, 'an older session may still show it');
  });

  it('two stores on one folder (two windows) keep each other\'s references', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-att-'));
    try {
      const open = () => new AttachmentStore({ dir, limits: () => ({ maxFileBytes: 20 << 20, maxDimension: 2048, maxBytes: 5 << 20 }) });
      const [one, two] = [open(), open()];
      const ref = await one.addBytes(shared, { name: 'a.png' });
      assert.equal((await two.addBytes(shared, { name: 'b.png' })).imageId, ref.imageId);
      await one.reference('session-1', [ref.imageId]);
      await two.reference('session-2', [ref.imageId]);
      assert.deepEqual(await one.releaseSessions(['session-1']), [], 'the other window still shows it');
      assert.ok(fs.existsSync(one.pathOf(ref.imageId)!));
      assert.deepEqual(await two.releaseSessions(['session-2']), [ref.imageId]);
      assert.deepEqual(fs.readdirSync(dir), ['index.json']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
