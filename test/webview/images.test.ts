import assert from 'node:assert/strict';
import { parseWebviewMessage } from '../../extension/protocol';
import type { ChatPage } from './harness/chat-page';
import { readImageHeader } from './harness/image-bytes';
import { deliverFiles, type DeliverArgs } from '../fixtures/page-files';
import { makePng } from '../fixtures/images/make';
import { useWebviewEnv } from './harness/suite';

const MB = 1024 * 1024;

function deliver(chat: ChatPage, args: DeliverArgs) {
  return deliverFiles(chat.page, args);
}

function thumbnail(chat: ChatPage, name: string) {
  return chat.page.locator(`.attachment[data-name="${name}"]`);
}

async function sentImages(chat: ChatPage) {
  const [send] = await chat.waitForPosted('send');
  assert.ok(parseWebviewMessage(send).ok, 'the send message is valid');
  return (send as { images?: Array<{ name: string; mime: string; dataBase64: string; width: number; height: number }> }).images ?? [];
}

describe('webview: images in the composer', function () {
  const env = useWebviewEnv();

  it('attaches a PNG pasted with a real ClipboardEvent, shows its thumbnail, and sends its bytes as they were', async () => {
    const chat = await env.open();
    await chat.init();
    const [png] = await deliver(chat, { how: 'paste', files: [{ name: 'shot.png', type: 'image/png', width: 300, height: 200 }] });
    const thumb = thumbnail(chat, 'shot.png');
    await chat.page.locator('.attachment[data-name="shot.png"][data-status="ready"]').waitFor();
    assert.equal(await thumb.locator('.attachment-name').innerText(), 'shot.png');
    assert.equal(await thumb.locator('.attachment-dims').innerText(), '300×200');
    assert.match(await thumb.locator('.attachment-meta').innerText(), /^\d+(\.\d)? KB · 300×200$/);
    const src = await thumb.locator('img').getAttribute('src');
    assert.ok(src?.startsWith('data:image/png;base64,'), 'the thumbnail is a data: image (allowed by the CSP)');
    assert.equal(await thumb.locator('img').evaluate((img: any) => img.naturalWidth), 300, 'the thumbnail loaded under the CSP');

    await chat.composer.fill('what is in this picture?');
    await chat.sendButton.click();
    const [image] = await sentImages(chat);
    assert.deepEqual({ ...image, dataBase64: undefined }, { name: 'shot.png', mime: 'image/png', dataBase64: undefined, width: 300, height: 200 });
    assert.equal(image?.dataBase64, png?.base64, 'small enough: the original bytes travel');
    await chat.items('user').locator('.image-chip').waitFor();
    assert.match(await chat.items('user').innerText(), /shot\.png \(300×200\)/);
    assert.equal(await chat.page.locator('.attachment').count(), 0, 'the composer is cleared');
    assert.deepEqual(chat.consoleOf('error'), []);
  });

  it('an image the host picked (Attach Image...) gets a thumbnail and is sent like a pasted one; one over 20 MB is refused on its thumbnail', async () => {
    const chat = await env.open();
    await chat.init();
    const png = makePng({ width: 30, height: 20 });
    await chat.host({ type: 'composer.attach', name: 'picked.png', mime: 'image/png', size: png.length, dataBase64: png.toString('base64') });
    await chat.host({ type: 'composer.attach', name: 'huge.png', mime: 'image/png', size: 21 * MB });
    await chat.page.locator('.attachment[data-name="picked.png"][data-status="ready"]').waitFor();
    assert.equal(await thumbnail(chat, 'picked.png').locator('.attachment-dims').innerText(), '30×20');
    const huge = chat.page.locator('.attachment[data-name="huge.png"][data-status="error"]');
    await huge.waitFor();
    assert.match(await huge.innerText(), /huge\.png is 21(\.0)? MB, over the 20(\.0)? MB limit for images\./);

    await chat.composer.fill('look');
    await chat.sendButton.click();
    const [image] = await sentImages(chat);
    assert.equal(image?.dataBase64, png.toString('base64'), 'the picked bytes travel as they were');
  });

  it('refuses a file over 20 MB on its thumbnail, keeping the draft text and the other image', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.composer.fill('keep this text');
    await deliver(chat, {
      how: 'paste',
      files: [
        { name: 'ok.png', type: 'image/png', width: 40, height: 30 },
        { name: 'huge.png', type: 'image/png', zeroBytes: 21 * MB },
      ],
    });
    const huge = thumbnail(chat, 'huge.png');
    await chat.page.locator('.attachment[data-name="huge.png"][data-status="error"]').waitFor();
    const error = await huge.locator('.attachment-error').innerText();
    assert.match(error, /huge\.png/);
    assert.match(error, /21 MB/, 'the file size');
    assert.match(error, /20 MB/, 'the limit');
    assert.match(await huge.locator('.attachment-meta').innerText(), /21 MB/);
    await chat.page.locator('.attachment[data-name="ok.png"][data-status="ready"]').waitFor();
    assert.equal(await chat.composer.inputValue(), 'keep this text', 'nothing else in the draft is lost');

    await chat.sendButton.click();
    const images = await sentImages(chat);
    assert.deepEqual(
      images.map((i) => i.name),
      ['ok.png'],
    );
    assert.equal((await chat.waitForPosted('send'))[0]?.text, 'keep this text');
  });

  it('downscales a large picture to 2048 px in the browser: JPEG when opaque, PNG when it has transparency', async () => {
    const chat = await env.open();
    await chat.init();
    await deliver(chat, {
      how: 'pick',
      files: [
        { name: 'wide.png', type: 'image/png', width: 3000, height: 1500 },
        { name: 'logo.png', type: 'image/png', width: 2600, height: 1300, alpha: 0.5 },
      ],
    });
    await chat.page.locator('.attachment[data-status="ready"]').nth(1).waitFor();
    assert.match(await thumbnail(chat, 'wide.png').locator('.attachment-meta').innerText(), /2048×1024 \(downscaled from 3000×1500\)/);
    assert.match(await thumbnail(chat, 'logo.png').locator('.attachment-meta').innerText(), /2048×1024 \(downscaled from 2600×1300\)/);
    await chat.sendButton.click();
    const [wide, logo] = await sentImages(chat);
    assert.deepEqual([wide?.name, wide?.mime, wide?.width, wide?.height], ['wide.jpg', 'image/jpeg', 2048, 1024]);
    assert.deepEqual(readImageHeader(wide?.dataBase64 ?? ''), { format: 'jpeg', width: 2048, height: 1024 });
    assert.deepEqual([logo?.name, logo?.mime, logo?.width, logo?.height], ['logo.png', 'image/png', 2048, 1024]);
    assert.deepEqual(readImageHeader(logo?.dataBase64 ?? ''), { format: 'png', width: 2048, height: 1024, alpha: true });
  });

  it('re-encodes an image within 2048 px but over 5 MB without enlarging it', async () => {
    const chat = await env.open();
    await chat.init();
    const [noisy] = await deliver(chat, { how: 'drop', files: [{ name: 'noise.png', type: 'image/png', width: 1600, height: 1200, noise: true }] });
    assert.ok((noisy?.size ?? 0) > 5 * MB, `the test picture is over 5 MB (${noisy?.size})`);
    await chat.page.locator('.attachment[data-name="noise.png"][data-status="ready"]').waitFor();
    await chat.sendButton.click();
    const [image] = await sentImages(chat);
    const header = readImageHeader(image?.dataBase64 ?? '');
    assert.equal(header.format, 'jpeg');
    assert.ok(header.width <= 1600 && header.height <= 1200, `never enlarged: ${header.width}x${header.height}`);
    assert.equal(header.width / header.height, 4 / 3, 'aspect kept');
    assert.ok(Buffer.from(image?.dataBase64 ?? '', 'base64').length <= 5 * MB);
  });

  it('drops images; a file that is not an image gets an error on its thumbnail; thumbnails can be removed', async () => {
    const chat = await env.open();
    await chat.init();
    await deliver(chat, {
      how: 'drop',
      files: [
        { name: 'notes.txt', type: 'text/plain', text: 'hello' },
        { name: 'fake.png', type: 'image/png', text: 'not really a png' },
        { name: 'photo.jpg', type: 'image/jpeg', width: 64, height: 48 },
      ],
    });
    await chat.page.locator('.attachment[data-name="photo.jpg"][data-status="ready"]').waitFor();
    await chat.page.locator('.attachment[data-name="fake.png"][data-status="error"]').waitFor();
    assert.match(await thumbnail(chat, 'notes.txt').locator('.attachment-error').innerText(), /notes\.txt is not an image \(text\/plain\)/);
    assert.match(await thumbnail(chat, 'fake.png').locator('.attachment-error').innerText(), /fake\.png is not an image this view can decode/);
    assert.equal(await thumbnail(chat, 'photo.jpg').locator('.attachment-dims').innerText(), '64×48');

    await chat.page.getByRole('button', { name: 'Remove photo.jpg' }).click();
    await thumbnail(chat, 'photo.jpg').waitFor({ state: 'detached' });
    assert.ok(await chat.sendButton.isDisabled(), 'only failed images and no text: nothing to send');
    await chat.page.getByRole('button', { name: 'Remove notes.txt' }).click();
    await chat.page.getByRole('button', { name: 'Remove fake.png' }).click();
    await chat.page.locator('.attachments').waitFor({ state: 'detached' });
  });

  it('says on the thumbnail that a model without vision gets a text marker', async () => {
    const chat = await env.open();
    await chat.init({ supportsImages: false });
    await deliver(chat, { how: 'paste', files: [{ name: 'shot.png', type: 'image/png', width: 300, height: 200 }] });
    const note = thumbnail(chat, 'shot.png').locator('[data-kind="no-vision"]');
    await note.waitFor();
    assert.match(await note.innerText(), /no vision.*\[image: shot\.png, 300x200, not sent: model has no vision\]/);
  });

  it('keeps the image chips of the first message of a new chat when the host names the session it made', async () => {
    const chat = await env.open();
    await chat.init({ sessionId: '' });
    await deliver(chat, { how: 'paste', files: [{ name: 'shot.png', type: 'image/png', width: 300, height: 200 }] });
    await chat.page.locator('.attachment[data-name="shot.png"][data-status="ready"]').waitFor();
    await chat.composer.fill('what is this?');
    await chat.sendButton.click();
    await chat.waitForPosted('send');
    // As the host's send() does for a new chat: init with the new session, then the turn's events.
    await chat.init({ running: true });
    await chat.events({ type: 'turn.start', turn: 1, prompt: 'what is this? [image shot.png]' }, { type: 'text.delta', text: 'A cat.' });
    await chat.items('assistant').waitFor();
    const user = chat.items('user');
    assert.equal(await user.count(), 1);
    assert.equal(await user.locator('.image-chip').count(), 1);
    assert.match(await user.innerText(), /what is this\?/);
    assert.doesNotMatch(await user.innerText(), /\[image shot\.png\]/, 'the chip, not the text marker');
  });

  it('keeps the composer images across hide/show', async () => {
    const first = await env.open();
    await first.init();
    await deliver(first, { how: 'paste', files: [{ name: 'keep.png', type: 'image/png', width: 20, height: 10 }] });
    await first.page.waitForFunction(() => (globalThis as any).__fakeHost.state?.attachments?.[0]?.status === 'ready');
    const second = await env.open({ initialState: await first.savedState() });
    await second.page.locator('.attachment[data-name="keep.png"][data-status="ready"]').waitFor();
    assert.equal(await thumbnail(second, 'keep.png').locator('.attachment-dims').innerText(), '20×10');
  });
});
