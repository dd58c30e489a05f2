import * as assert from 'node:assert/strict';
import type { Frame, Locator } from 'playwright-core';
import type { ScriptedServer } from '../fixtures/scripted-server';
import { waitUntil } from '../fixtures/eventually';
import { CHAT } from './harness/selectors';
import { scriptedModelSettings, useScriptedModel } from './harness/scripted-model';
import { useVsCode } from './harness/use-vscode';
import type { Workbench } from './harness/workbench';

const PROMPT = 'read notes.md and summarize it';
const MESSAGE = 'actually, we use spaces now';

/** A suite's scripted model and its VS Code, on a workspace with notes.md, with `settings` added to the model's. */
function useNotesChat(settings: Record<string, unknown> = {}) {
  const scripted = useScriptedModel();
  const vscode = useVsCode(() => ({ settings: scriptedModelSettings(scripted(), settings), workspaceFiles: { 'notes.md': '# Notes\nuse tabs\n' } }));
  return { scripted, vscode };
}

/** A promise the test resolves when it is ready: the scripted model waits on it before it answers. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/**
 * Sends PROMPT; while its first request waits (the model answers once `firstReply` opens, with a
 * read_file of notes.md), types MESSAGE and sends it with the button `sendLabel`. Returns once the
 * message waits above the composer, checked to carry `delivery`, the composer emptied.
 */
async function typeDuringTurn(workbench: Workbench, sendLabel: string, delivery: 'steer' | 'queue') {
  await workbench.openSnowpea();
  const frame = await workbench.findWebviewFrame(CHAT.composer);
  const composer = frame.locator(CHAT.composer);
  await composer.fill(PROMPT);
  await composer.press('Enter');
  await frame.getByRole('button', { name: 'Stop' }).waitFor({ state: 'visible' });

  // The composer stays usable: the message waits, shown above it.
  await composer.fill(MESSAGE);
  await frame.getByRole('button', { name: sendLabel }).click();
  const waiting = frame.getByTestId('queued-message');
  await waiting.waitFor({ state: 'visible' });
  assert.match(await waiting.innerText(), new RegExp(MESSAGE));
  assert.equal(await waiting.getAttribute('data-delivery'), delivery);
  assert.equal(await composer.inputValue(), '');
  return { frame, transcript: frame.locator(CHAT.transcript), waiting };
}

/** The transcript's user messages, tool cards and answers in order; a message sent during a turn marked `*`. */
function transcriptKinds(frame: Frame): Promise<string[]> {
  return frame.locator(`${CHAT.transcript} [data-kind]`).evaluateAll((els) =>
    els.flatMap((e) => {
      const kind = e.getAttribute('data-kind');
      return kind === 'user' || kind === 'tool' || kind === 'assistant' ? [`${kind}${e.getAttribute('data-during-turn') ? '*' : ''}`] : [];
    }),
  );
}

/** The messages of recorded chat request `index`. */
const messagesOf = (model: ScriptedServer, index: number): { role: string; content: string }[] => model.chatRequests()[index].body.messages;

/** Waits until the transcript shows `answer` and the turn has ended (Send is back, nothing waits). */
async function waitForTurnEnd(frame: Frame, waiting: Locator, answer: string): Promise<void> {
  await frame.locator(CHAT.transcript).getByText(answer).waitFor({ state: 'visible' });
  await waiting.waitFor({ state: 'detached' });
  await frame.getByRole('button', { name: 'Send' }).waitFor({ state: 'visible' });
}

describe('e2e: a message sent while a turn runs is read at the turn\'s next step (issue 30 item 3)', function () {
  const { scripted, vscode } = useNotesChat();

  it('typed during the first request, it waits above the composer, then goes after the read_file result in the same turn, and the answer follows it', async function () {
    const model = scripted();
    const { workbench } = vscode();
    // The first reply waits until the test has sent its message: then the model reads a file, and answers.
    const firstReply = gate();
    model.setResponder(async (_body, i) => {
      if (i === 0) {
        await firstReply.opened;
        return { toolCalls: [{ id: 'call_notes', name: 'read_file', arguments: '{"path":"notes.md"}' }] };
      }
      return { text: i === 1 ? 'Noted: spaces, not tabs.' : `reply ${i}` };
    });

    const { frame, transcript, waiting } = await typeDuringTurn(workbench, "Steer: read at the turn's next step", 'steer');
    firstReply.open();
    await waitForTurnEnd(frame, waiting, 'Noted: spaces, not tabs.');

    // What the model got: the message appended after the round's tool result, the first request a prefix of the second.
    const [first, second] = model.chatRequests();
    assert.equal(model.chatRequests().length, 2, 'one turn of two rounds: the message did not start a turn of its own');
    const before = first.body.messages;
    const after = second.body.messages;
    assert.deepEqual(after.slice(0, before.length), before);
    assert.deepEqual(
      after.slice(before.length).map((m: { role: string }) => m.role),
      ['assistant', 'tool', 'user'],
    );
    assert.match(after.at(-2).content, /use tabs/);
    assert.equal(after.at(-1).content, MESSAGE);

    // What the user sees, in order: the prompt, the read_file card, the message (marked), the answer.
    assert.deepEqual(await transcriptKinds(frame), ['user', 'tool', 'user*', 'assistant']);
    assert.match(await transcript.locator('[data-during-turn="true"]').innerText(), /sent during the turn\s+actually, we use spaces now/);
    assert.deepEqual(await workbench.errorNotificationTexts(), []);
  });
});

describe('e2e: with chat.messagesDuringTurn "queue", a message sent while a turn runs waits for the turn\'s end and runs as its own turn (issue 30 item 3)', function () {
  const { scripted, vscode } = useNotesChat({ 'snowpea.chat.messagesDuringTurn': 'queue' });

  it('typed during the first request, it is not read at the round boundary, still waits while the answer is asked for, then is the user message of a new turn with its own checkpoint', async function () {
    const model = scripted();
    const { workbench } = vscode();
    // Both requests of the first turn wait for the test: the read_file round, then the answer.
    const firstReply = gate();
    const answer = gate();
    model.setResponder(async (_body, i) => {
      if (i === 0) {
        await firstReply.opened;
        return { toolCalls: [{ id: 'call_notes', name: 'read_file', arguments: '{"path":"notes.md"}' }] };
      }
      if (i === 1) {
        await answer.opened;
        return { text: 'Summary: the notes say to use tabs.' };
      }
      return { text: i === 2 ? 'Switched: spaces from now on.' : `reply ${i}` };
    });

    const { frame, transcript, waiting } = await typeDuringTurn(workbench, 'Queue: sent when the turn ends', 'queue');
    assert.equal(await waiting.getByRole('button', { name: /^After turn:/ }).count(), 1, 'its switch says After turn');
    firstReply.open();

    // The round boundary has passed (the second request is out) and the message was not read there: it still waits.
    await waitUntil(() => model.chatRequests().length >= 2, 'the first turn\'s second request', 60_000, 50);
    const roundTwo = messagesOf(model, 1);
    assert.deepEqual(
      roundTwo.slice(messagesOf(model, 0).length).map((m) => m.role),
      ['assistant', 'tool'],
      'the second request ends with the tool result: nothing was appended after it',
    );
    assert.equal(await waiting.count(), 1, 'the message still waits while the turn asks for its answer');
    assert.equal(await waiting.getAttribute('data-delivery'), 'queue');
    await frame.getByRole('button', { name: 'Stop' }).waitFor({ state: 'visible' });
    answer.open();

    await waitForTurnEnd(frame, waiting, 'Switched: spaces from now on.');

    // What the model got: two requests without the message (the first turn), then a third that carries it as the new turn's user message.
    const requests = model.chatRequests();
    assert.equal(requests.length, 3, 'the first turn\'s two rounds, then one request for the queued message\'s turn');
    for (const i of [0, 1]) assert.doesNotMatch(JSON.stringify(messagesOf(model, i)), /we use spaces now/, `request ${i} (the first turn) does not carry the queued message`);
    const third = messagesOf(model, 2);
    assert.equal(third.at(-1)?.role, 'user');
    assert.equal(third.at(-1)?.content, MESSAGE);
    // It came after the first turn had ended: it starts with the first turn's last request, then that turn's answer, then the message.
    assert.deepEqual(third.slice(0, roundTwo.length), roundTwo);
    assert.deepEqual(
      third.slice(roundTwo.length).map((m) => m.role),
      ['assistant', 'user'],
    );
    assert.equal(third.at(-2)?.content, 'Summary: the notes say to use tabs.');
    assert.equal(third.filter((m) => m.role === 'user' && m.content.includes(PROMPT)).length, 1, 'the first prompt once, as history');

    // What the user sees: two turns, the message unmarked (not "sent during the turn") with a checkpoint of its own (message 2).
    assert.deepEqual(await transcriptKinds(frame), ['user', 'tool', 'assistant', 'user', 'assistant']);
    assert.equal(await transcript.locator('[data-during-turn="true"]').count(), 0);
    const second = transcript.locator('[data-kind="user"]').nth(1);
    assert.match(await second.innerText(), new RegExp(MESSAGE));
    await second.getByRole('button', { name: 'Restore checkpoint of message 2' }).waitFor({ state: 'visible' });
    assert.deepEqual(await workbench.errorNotificationTexts(), []);
  });
});
