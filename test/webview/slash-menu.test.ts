import assert from 'node:assert/strict';
import type { SlashCommandInfo } from '../../extension/protocol';
import { useWebviewEnv } from './harness/suite';

const commands: SlashCommandInfo[] = [
  { name: 'fix-issue', description: 'Fix an issue \u202e now', argumentHint: '[issue]', origin: '.claude/commands/fix-issue.md' },
  { name: 'prereq', description: 'Check the prerequisites', origin: '~/.claude/commands/prereq.md' },
  { name: 'review', description: 'Review a file', argumentHint: 'file=<path>', origin: '.github/prompts/review.prompt.md' },
];

describe('webview: the slash menu (issue 30 item 4)', function () {
  const env = useWebviewEnv();

  it('/ lists the composer\'s commands and the prompt files\', filters as you type, and the keyboard puts /name in the draft; then Enter sends it with its arguments', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.host({ type: 'commands', commands });
    await chat.composer.click();
    await chat.page.keyboard.type('/');
    const menu = chat.page.getByRole('listbox', { name: 'Commands' });
    const options = menu.getByRole('option');
    await options.first().waitFor();
    assert.deepEqual(
      (await options.locator('.slash-name').allInnerTexts()).map((t) => t.trim()),
      ['/compact [focus]', '/plan [message]', '/act [message]', '/agent [name] [message]', '/fix-issue [issue]', '/prereq', '/review file=<path>'],
    );
    assert.equal(await options.nth(6).locator('.slash-origin').innerText(), '.github/prompts/review.prompt.md');
    // A file's hidden characters show as marked chips, as everywhere a file's text is shown.
    assert.equal(await options.nth(4).locator('[data-kind="hidden-char"]').innerText(), '<U+202E>');

    await chat.page.keyboard.type('re');
    assert.deepEqual(await options.locator('.slash-name').allInnerTexts(), ['/review file=<path>', '/prereq'], 'names that start with the query first, then those that contain it');
    await chat.page.keyboard.press('ArrowDown');
    assert.equal(await chat.composer.getAttribute('aria-activedescendant'), await options.nth(1).getAttribute('id'));
    await chat.page.keyboard.press('Enter');
    await menu.waitFor({ state: 'detached' });
    assert.equal(await chat.composer.inputValue(), '/prereq ');
    assert.equal((await chat.posted()).filter((m) => m.type === 'send').length, 0, 'Enter chose a command, it did not send');
    await chat.page.keyboard.type('for node 20');
    await chat.page.keyboard.press('Enter');
    const [send] = await chat.waitForPosted('send');
    assert.equal(send.text, '/prereq for node 20');
  });

  it('a name typed in full sends on Enter; Tab completes; Escape closes; the mouse picks; a new list replaces the old', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.host({ type: 'commands', commands });
    await chat.composer.click();
    await chat.page.keyboard.type('/fix');
    const menu = chat.page.getByRole('listbox', { name: 'Commands' });
    await menu.waitFor();
    await chat.page.keyboard.press('Tab');
    assert.equal(await chat.composer.inputValue(), '/fix-issue ');
    await chat.composer.fill('');

    await chat.page.keyboard.type('/rev');
    await menu.waitFor();
    await chat.page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await chat.page.keyboard.type('iew');
    await menu.waitFor();
    await chat.page.keyboard.press('Enter');
    const [send] = await chat.waitForPosted('send');
    assert.equal(send.text, '/review', 'Enter on a full name sends it');

    await chat.host({ type: 'commands', commands: [commands[1]] });
    await chat.composer.fill('');
    await chat.page.keyboard.type('/p');
    await menu.waitFor();
    assert.deepEqual(await menu.getByRole('option').locator('.slash-name').allInnerTexts(), ['/plan [message]', '/prereq', '/compact [focus]'], 'the deleted commands are gone');
    await menu.getByRole('option', { name: /prereq/ }).click();
    assert.equal(await chat.composer.inputValue(), '/prereq ');
    await chat.composer.fill('a /review in the middle');
    assert.equal(await menu.count(), 0, 'only a / at the start of the message opens the menu');
  });

  it('/agent: one row per custom agent; /agent NAME message switches the chat to it, then sends the message; the chip shows it and its close goes back to Snowpea', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.host({ type: 'commands', commands, agents: [{ name: 'Docs Writer', description: 'Writes the docs' }, { name: 'tester' }] });
    await chat.composer.click();
    await chat.page.keyboard.type('/age');
    const menu = chat.page.getByRole('listbox', { name: 'Commands' });
    await menu.waitFor();
    const options = menu.getByRole('option');
    assert.deepEqual((await options.locator('.slash-name').allInnerTexts()).map((t) => t.trim()), ['/agent [name] [message]', '/agent Docs Writer', '/agent tester']);
    assert.equal(await options.nth(1).locator('.slash-description').innerText(), 'Writes the docs');
    await chat.page.keyboard.press('ArrowDown');
    await chat.page.keyboard.press('Tab');
    assert.equal(await chat.composer.inputValue(), '/agent Docs Writer ');
    await chat.page.keyboard.type('update the README');
    await chat.page.keyboard.press('Enter');
    const [send] = await chat.waitForPosted('send');
    assert.equal(send.text, 'update the README', 'the message after the name is what is sent');
    const posted = await chat.posted();
    const set = posted.findIndex((m) => m.type === 'agent.set');
    assert.deepEqual(posted[set], { type: 'agent.set', name: 'Docs Writer' }, 'a name with a space is read whole');
    assert.ok(set < posted.findIndex((m) => m.type === 'send'), 'the agent is set before the message goes');

    assert.equal(await chat.page.getByTestId('agent-chip').count(), 0, 'no chip until the host says the chat runs as the agent');
    await chat.host({ type: 'header', sessionId: 's1', title: 'New chat', model: 'm', workspaceTrusted: true, setupNeeded: false, agent: 'Docs Writer' });
    const chip = chat.page.getByTestId('agent-chip');
    await chip.waitFor();
    assert.equal((await chip.innerText()).trim(), 'Docs Writer');
    await chip.getByRole('button', { name: 'Stop running as Docs Writer' }).click();
    assert.deepEqual((await chat.posted()).filter((m) => m.type === 'agent.set').at(-1), { type: 'agent.set', name: null });
    await chat.host({ type: 'header', sessionId: 's1', title: 'New chat', model: 'm', workspaceTrusted: true, setupNeeded: false });
    await chip.waitFor({ state: 'detached' });

    await chat.composer.fill('/agent');
    await chat.page.keyboard.press('End');
    await chat.page.keyboard.press('Escape');
    await chat.page.keyboard.press('Enter');
    await chat.waitForPosted('agent.set', 3);
    assert.deepEqual((await chat.posted()).filter((m) => m.type === 'agent.set').at(-1), { type: 'agent.set', name: null }, '/agent alone: back to Snowpea');
    assert.equal((await chat.posted()).filter((m) => m.type === 'send').length, 1, 'and nothing is sent');
  });
});
