/** Messages while a turn runs (issue 30 item 3), in the built webview: the composer during a turn and the waiting messages above it. */
import assert from 'node:assert/strict';
import type { HostMessage } from '../../extension/protocol';
import { useWebviewEnv } from './harness/suite';
import type { ChatPage } from './harness/chat-page';

type QueueMessage = Extract<HostMessage, { type: 'queue' }>;

function queue(chat: ChatPage, items: QueueMessage['items'], extra: Partial<QueueMessage> = {}): Promise<void> {
  return chat.host({ type: 'queue', sessionId: chat.sessionId, items, held: false, delivery: 'steer', ...extra });
}

describe('webview: messages sent while a turn runs (issue 30)', function () {
  const env = useWebviewEnv();

  async function running(): Promise<ChatPage> {
    const chat = await env.open();
    await chat.init();
    await chat.composer.fill('run the tests');
    await chat.page.keyboard.press('Enter');
    await chat.events({ type: 'turn.start', turn: 1, prompt: 'run the tests' }, { type: 'round.start', round: 1 }, { type: 'tool.call', callId: 'c1', tool: 'shell', args: '{"command":"npm test"}', title: 'npm test', summary: '' });
    await chat.stopButton.waitFor();
    return chat;
  }

  it('the composer stays usable during a turn: Stop beside a Steer button, Enter sends without adding to the transcript, Stop pressed holds sending', async () => {
    const chat = await running();
    const steer = chat.page.getByRole('button', { name: "Steer: read at the turn's next step" });
    await steer.waitFor();
    assert.equal(await chat.sendButton.count(), 0, 'no plain Send while the turn runs');
    assert.equal(await chat.composer.isDisabled(), false);
    assert.match((await chat.composer.getAttribute('placeholder')) ?? '', /a message now is read at its next step/);
    await chat.composer.fill('use pytest, not npm');
    await chat.page.keyboard.press('Enter');
    const sent = await chat.waitForPosted('send', 2);
    assert.deepEqual(sent[1], { type: 'send', text: 'use pytest, not npm' });
    assert.equal(await chat.composer.inputValue(), '', 'the draft went to the queue');
    assert.equal(await chat.items('user').count(), 1, 'it shows in the transcript only once the model reads it');

    // The setting's other choice: the button says the message runs after the turn.
    await queue(chat, [], { delivery: 'queue' });
    await chat.page.getByRole('button', { name: 'Queue: sent when the turn ends' }).waitFor();
    assert.match((await chat.composer.getAttribute('placeholder')) ?? '', /sent when it finishes/);

    await chat.stopButton.click();
    await chat.composer.fill('one more');
    assert.equal(await chat.page.getByRole('button', { name: 'Queue: sent when the turn ends' }).isDisabled(), true, 'nothing is sent between Stop and the turn\'s end');
    await chat.page.keyboard.press('Enter');
    assert.equal((await chat.posted()).filter((m) => m.type === 'send').length, 2);
    assert.deepEqual(chat.pageErrors, []);
  });

  it('waiting messages show above the composer: switched, edited (Enter saves, Escape cancels) and removed through the host', async () => {
    const chat = await running();
    await queue(chat, [
      { id: 'q1', text: 'use pytest', delivery: 'steer' },
      { id: 'q2', text: 'then update the docs \u202e', images: [{ name: 'shot.png', mime: 'image/png', width: 4, height: 3 }], delivery: 'queue' },
    ]);
    const rows = chat.page.getByTestId('queued-message');
    await rows.nth(1).waitFor();
    assert.match(await chat.page.getByTestId('queue').innerText(), /2 waiting while Snowpea works/);
    assert.deepEqual(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-delivery'))), ['steer', 'queue']);
    assert.equal(await rows.nth(1).locator('[data-kind="hidden-char"]').count(), 1, 'hidden characters show as chips');
    assert.match(await rows.nth(1).innerText(), /shot\.png/);
    assert.equal(await chat.page.getByRole('button', { name: 'Send now' }).count(), 0, 'no Send now while the turn runs');

    await rows.nth(0).getByRole('button', { name: /^Next step/ }).click();
    await rows.nth(1).getByRole('button', { name: /^After turn/ }).click();
    assert.deepEqual(
      (await chat.waitForPosted('queue.delivery', 2)).map((m) => [m.id, m.delivery]),
      [
        ['q1', 'queue'],
        ['q2', 'steer'],
      ],
    );

    await rows.nth(0).getByRole('button', { name: 'Edit' }).click();
    const edit = chat.page.getByRole('textbox', { name: 'Edit waiting message' });
    await edit.fill('discarded');
    await edit.press('Escape');
    await edit.waitFor({ state: 'detached' });
    assert.equal(await chat.composer.inputValue(), '', 'Escape in the editor leaves the composer alone');
    await rows.nth(0).getByRole('button', { name: 'Edit' }).click();
    await edit.fill('use pytest -q');
    await edit.press('Enter');
    assert.deepEqual((await chat.waitForPosted('queue.edit', 1)).map((m) => [m.id, m.text]), [['q1', 'use pytest -q']]);
    await rows.nth(1).getByRole('button', { name: 'Remove' }).click();
    assert.deepEqual((await chat.waitForPosted('queue.remove', 1)).map((m) => m.id), ['q2']);

    // The host's answer is what shows.
    await queue(chat, [{ id: 'q1', text: 'use pytest -q', delivery: 'queue' }]);
    await rows.nth(1).waitFor({ state: 'detached' });
    assert.equal(await rows.nth(0).innerText().then((t) => t.includes('use pytest -q')), true);
    assert.deepEqual(chat.pageErrors, []);
  });

  it('a message read at a step shows after that step\'s tool card and before the answer, marked, with no restore action; a queued one that runs shows what was typed', async () => {
    const chat = await running();
    await chat.events(
      { type: 'tool.result', callId: 'c1', tool: 'shell', ok: true, summary: '3 passing' },
      { type: 'message.delivered', id: 'q1', text: 'use pytest' },
      { type: 'round.start', round: 2 },
      { type: 'text.delta', text: 'Switching to pytest.' },
      { type: 'turn.end', reason: 'done', rounds: 2 },
    );
    const kinds = await chat.page.locator('.transcript [data-kind]').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-kind')}${e.getAttribute('data-during-turn') ? '*' : ''}`));
    assert.deepEqual(kinds.filter((k) => k !== 'reasoning' && k !== 'restore'), ['user', 'tool', 'user*', 'assistant']);
    const during = chat.page.locator('.transcript [data-during-turn="true"]');
    assert.match(await during.innerText(), /sent during the turn\s+use pytest/);
    assert.equal(await during.getByRole('button').count(), 0, 'no restore action: it is not a turn of its own');

    // A queued message that runs as the next turn: the typed words, not the files its @mention inlined.
    await chat.events({ type: 'turn.start', turn: 2, prompt: 'look at @a.ts\n<contents of a.ts>', text: 'look at @a.ts' });
    const users = chat.items('user');
    await users.nth(2).waitFor();
    assert.match(await users.nth(2).innerText(), /^look at @a\.ts/);
    assert.doesNotMatch(await users.nth(2).innerText(), /contents of a\.ts/);
    assert.deepEqual(chat.pageErrors, []);
  });

  it('after a Stop the queue waits for the user: Send now on a message; another session\'s queue and a new session clear it', async () => {
    const chat = await running();
    await chat.events({ type: 'turn.end', reason: 'cancelled', rounds: 1 });
    await queue(chat, [{ id: 'q1', text: 'use pytest', delivery: 'steer' }], { held: true });
    const list = chat.page.getByTestId('queue');
    await list.waitFor();
    assert.match(await list.innerText(), /the turn stopped, so nothing here is sent until you send one/);
    await list.getByRole('button', { name: 'Send now' }).click();
    assert.deepEqual((await chat.waitForPosted('queue.sendNow', 1)).map((m) => m.id), ['q1']);

    await chat.host({ type: 'queue', sessionId: 'another-session', items: [], held: false, delivery: 'steer' });
    assert.equal(await list.count(), 1, 'another session\'s queue is not this one\'s');
    await chat.host({ type: 'init', sessionId: 'another-session', title: 'Other', model: 'm', loadedTools: [], workspaceTrusted: true, setupNeeded: false });
    await list.waitFor({ state: 'detached' });
    assert.deepEqual(chat.pageErrors, []);
  });

  it('a replayed message sent during a turn is marked and has no turn', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.host({
      type: 'transcript',
      sessionId: chat.sessionId,
      entries: [
        { role: 'user', text: 'run the tests', turn: 1 },
        { role: 'user', text: 'use pytest', duringTurn: true },
        { role: 'assistant', text: 'Done.' },
      ],
    });
    await chat.page.locator('.transcript [data-during-turn="true"]').waitFor();
    assert.equal(await chat.page.locator('.transcript [data-during-turn="true"]').getByRole('button').count(), 0);
  });
});
