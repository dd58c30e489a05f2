import * as assert from 'node:assert/strict';
import { CHAT } from './harness/selectors';
import { scriptedModelSettings, useScriptedModel } from './harness/scripted-model';
import { useVsCode } from './harness/use-vscode';

describe('e2e: a message sent while a turn runs is read at the turn\'s next step (issue 30 item 3)', function () {
  const scripted = useScriptedModel();
  const vscode = useVsCode(() => ({ settings: scriptedModelSettings(scripted()), workspaceFiles: { 'notes.md': '# Notes\nuse tabs\n' } }));

  it('typed during the first request, it waits above the composer, then goes after the read_file result in the same turn, and the answer follows it', async function () {
    const model = scripted();
    const { workbench } = vscode();
    // The first reply waits until the test has sent its message: then the model reads a file, and answers.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    model.setResponder(async (_body, i) => {
      if (i === 0) {
        await released;
        return { toolCalls: [{ id: 'call_notes', name: 'read_file', arguments: '{"path":"notes.md"}' }] };
      }
      return { text: i === 1 ? 'Noted: spaces, not tabs.' : `reply ${i}` };
    });

    await workbench.openSnowpea();
    const frame = await workbench.findWebviewFrame(CHAT.composer);
    const composer = frame.locator(CHAT.composer);
    const transcript = frame.locator(CHAT.transcript);
    await composer.fill('read notes.md and summarize it');
    await composer.press('Enter');
    await frame.getByRole('button', { name: 'Stop' }).waitFor({ state: 'visible' });

    // The composer stays usable: the message waits, shown above it, until the turn's next step.
    await composer.fill('actually, we use spaces now');
    await frame.getByRole('button', { name: "Steer: read at the turn's next step" }).click();
    const waiting = frame.getByTestId('queued-message');
    await waiting.waitFor({ state: 'visible' });
    assert.match(await waiting.innerText(), /actually, we use spaces now/);
    assert.equal(await waiting.getAttribute('data-delivery'), 'steer');
    assert.equal(await composer.inputValue(), '');
    release();

    await transcript.getByText('Noted: spaces, not tabs.').waitFor({ state: 'visible' });
    await waiting.waitFor({ state: 'detached' });
    await frame.getByRole('button', { name: 'Send' }).waitFor({ state: 'visible' });

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
    assert.equal(after.at(-1).content, 'actually, we use spaces now');

    // What the user sees, in order: the prompt, the read_file card, the message (marked), the answer.
    const kinds = await frame.locator(`${CHAT.transcript} [data-kind]`).evaluateAll((els) =>
      els.flatMap((e) => {
        const kind = e.getAttribute('data-kind');
        return kind === 'user' || kind === 'tool' || kind === 'assistant' ? [`${kind}${e.getAttribute('data-during-turn') ? '*' : ''}`] : [];
      }),
    );
    assert.deepEqual(kinds, ['user', 'tool', 'user*', 'assistant']);
    assert.match(await transcript.locator('[data-during-turn="true"]').innerText(), /sent during the turn\s+actually, we use spaces now/);
    assert.deepEqual(await workbench.errorNotificationTexts(), []);
  });
});
