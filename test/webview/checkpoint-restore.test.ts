import assert from 'node:assert/strict';
import { parseWebviewMessage, type TranscriptEntry } from '../../extension/protocol';
import { useWebviewEnv } from './harness/suite';

const replay: TranscriptEntry[] = [
  { role: 'user', text: 'first ask', turn: 1 },
  { role: 'assistant', text: 'first answer' },
  { role: 'user', text: 'second ask', turn: 2 },
  { role: 'assistant', text: 'second answer' },
];

describe('webview: restore a user message\'s checkpoint (issue 19 checkpoints)', function () {
  const env = useWebviewEnv();

  it('issue 19 checkpoints: each replayed user message has a titled restore button; its first choice asks the host to restore files to before that message', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.host({ type: 'transcript', sessionId: 's1', entries: replay });
    const second = chat.page.getByRole('button', { name: 'Restore checkpoint of message 2' });
    await second.waitFor();
    assert.equal(await chat.page.getByRole('button', { name: /^Restore checkpoint of message \d$/ }).count(), 2, 'one per user message, none on answers');
    assert.match((await second.getAttribute('title')) ?? '', /Restore checkpoint/);
    assert.equal(await second.getAttribute('aria-expanded'), 'false');

    await second.click();
    const choices = chat.page.getByRole('group', { name: 'Restore to before message 2' });
    await choices.waitFor();
    assert.equal(await second.getAttribute('aria-expanded'), 'true');
    assert.deepEqual(await choices.getByRole('button').allInnerTexts(), ['Restore files to before this message', 'Restore and rewind']);
    await choices.getByRole('button', { name: 'Restore files to before this message' }).click();

    const [sent] = await chat.waitForPosted('checkpoint.restore');
    assert.deepEqual(sent, { type: 'checkpoint.restore', sessionId: 's1', turn: 2, rewind: false });
    assert.ok(parseWebviewMessage(sent).ok, 'a message the host accepts');
    await choices.waitFor({ state: 'detached' });
    assert.deepEqual(chat.pageErrors, []);
  });

  it('issue 19 checkpoints: a live message gets the action once turn.start numbers it, and it works from the keyboard (Restore and rewind)', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.host({ type: 'transcript', sessionId: 's1', entries: replay });
    await chat.typeInComposer('third ask');
    await chat.page.keyboard.press('Enter');
    await chat.items('user').nth(2).waitFor();
    assert.equal(await chat.page.getByRole('button', { name: /^Restore checkpoint of message/ }).count(), 2, 'not before the host numbered it');

    await chat.events({ type: 'turn.start', turn: 3, prompt: 'third ask' });
    const third = chat.page.getByRole('button', { name: 'Restore checkpoint of message 3' });
    await third.waitFor();
    assert.equal(await third.isDisabled(), true, 'no restore while the turn runs');
    await chat.events({ type: 'text.delta', text: 'third answer' }, { type: 'turn.end', reason: 'done', rounds: 1 });
    assert.equal(await third.isDisabled(), false);

    await third.focus();
    await chat.page.keyboard.press('Enter');
    const first = chat.page.getByRole('button', { name: 'Restore files to before this message' });
    await first.waitFor();
    assert.equal(await first.evaluate((el) => el === el.ownerDocument.activeElement), true, 'opening moves focus to the first choice');
    await chat.page.keyboard.press('Escape');
    await first.waitFor({ state: 'detached' });
    assert.equal(await third.evaluate((el) => el === el.ownerDocument.activeElement), true, 'Escape closes and gives focus back to the button');
    assert.equal((await chat.posted()).filter((m) => m.type === 'checkpoint.restore').length, 0, 'Escape sends nothing');

    await chat.page.keyboard.press('Enter');
    await first.waitFor();
    await chat.page.keyboard.press('Tab');
    await chat.page.keyboard.press('Enter');
    const [sent] = await chat.waitForPosted('checkpoint.restore');
    assert.deepEqual(sent, { type: 'checkpoint.restore', sessionId: 's1', turn: 3, rewind: true });
  });

  it('issue 19 rewind: the host\'s replay after a rewind shows the conversation up to before the message, and the message returns to the composer', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.host({ type: 'transcript', sessionId: 's1', entries: replay });
    await chat.items('assistant').nth(1).waitFor();
    // What the host sends once the user confirmed "Restore and rewind" of message 2.
    await chat.init();
    await chat.host({ type: 'transcript', sessionId: 's1', entries: replay.slice(0, 2) });
    await chat.host({ type: 'composer.insert', text: 'second ask' });
    await chat.page.getByText('second answer').waitFor({ state: 'detached' });
    assert.deepEqual(await chat.items('user').allInnerTexts(), ['first ask']);
    assert.equal(await chat.composer.inputValue(), 'second ask');
    assert.equal(await chat.page.getByRole('button', { name: 'Restore checkpoint of message 1' }).count(), 1);
  });
});
