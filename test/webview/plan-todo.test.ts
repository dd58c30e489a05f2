/** The plan toggle, /plan and /act, "Approve plan" and the pinned todo list (issue 30 item 2), in the built webview. */
import assert from 'node:assert/strict';
import { useWebviewEnv } from './harness/suite';

const TODOS = [
  { text: 'read the parser', status: 'done' as const },
  { text: 'fix the \u202eoff-by-one', status: 'in_progress' as const },
  { text: 'run the tests', status: 'pending' as const },
];

describe('webview: plan mode and the todo list (issue 30)', function () {
  const env = useWebviewEnv();

  it('the Plan toggle posts the mode and shows it pressed; /plan MESSAGE switches then sends; /act switches back without sending', async () => {
    const chat = await env.open();
    await chat.init();
    const toggle = chat.page.getByTestId('plan-toggle');
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
    await toggle.click();
    assert.deepEqual((await chat.waitForPosted('mode.set', 1)).map((m) => m.mode), ['plan']);
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
    await toggle.click();
    await chat.typeInComposer('/plan look at the parser');
    await chat.page.keyboard.press('Enter');
    const sent = await chat.waitForPosted('send', 1);
    assert.equal(sent[0].text, 'look at the parser');
    const modes = (await chat.posted()).filter((m) => m.type === 'mode.set' || m.type === 'send').map((m) => (m.type === 'send' ? 'send' : m.mode));
    assert.deepEqual(modes, ['plan', 'code', 'plan', 'send'], 'the mode is set before the message goes');
    await chat.events({ type: 'turn.start', turn: 1, prompt: 'look at the parser' }, { type: 'turn.end', reason: 'done', rounds: 1 });
    await chat.typeInComposer('/act');
    await chat.page.keyboard.press('Enter');
    assert.deepEqual((await chat.waitForPosted('mode.set', 4)).at(-1)!.mode, 'code');
    assert.equal((await chat.posted()).filter((m) => m.type === 'send').length, 1, '/act alone sends nothing');
    assert.equal(await chat.composer.inputValue(), '');
    assert.deepEqual(chat.pageErrors, []);
  });

  it('the todo list is pinned while a turn runs, folds to one line, and stays under a finished plan with "Approve plan", which posts plan.approve', async () => {
    const chat = await env.open();
    await chat.init({ mode: 'plan' });
    const list = chat.page.getByTestId('todo-list');
    await chat.events({ type: 'turn.start', turn: 1, prompt: 'plan the fix' }, { type: 'todos', todos: TODOS });
    await list.waitFor();
    assert.deepEqual(await list.locator('.todo-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-status'))), ['done', 'in_progress', 'pending']);
    assert.match(await list.locator('.todo-head').innerText(), /Todo 1\/3/);
    assert.equal(await list.locator('[data-kind="hidden-char"]').count(), 1, 'the bidi override in model text is shown as a chip');
    await list.locator('.todo-head').click();
    assert.equal(await list.locator('.todo-item').count(), 0);
    assert.match(await list.locator('.todo-head').innerText(), /Todo 1\/3\s+fix the/);
    assert.equal(await chat.page.getByTestId('plan-approval').count(), 0, 'no approval while the plan is being written');

    await chat.events({ type: 'text.delta', text: '1. fix it' }, { type: 'turn.end', reason: 'done', rounds: 2 });
    const approve = chat.page.getByRole('button', { name: /Approve plan → switch to Act/ });
    await approve.waitFor();
    await list.waitFor();
    await approve.click();
    await chat.waitForPosted('plan.approve', 1);
    await approve.waitFor({ state: 'detached' });
    assert.equal(await chat.page.getByTestId('plan-toggle').getAttribute('aria-pressed'), 'false');
    await chat.events({ type: 'mode', mode: 'code' }, { type: 'turn.start', turn: 2, prompt: 'Plan approved. Carry it out now, step by step.' }, { type: 'turn.end', reason: 'done', rounds: 1 });
    await list.waitFor({ state: 'detached' });
    assert.deepEqual(chat.pageErrors, []);
  });

  it('a stopped plan-mode turn offers no approval; a reload restores the mode and the stored list', async () => {
    const chat = await env.open();
    await chat.init({ mode: 'plan', todos: TODOS, running: true });
    await chat.page.getByTestId('todo-list').waitFor();
    assert.equal(await chat.page.getByTestId('plan-toggle').getAttribute('aria-pressed'), 'true');
    await chat.events({ type: 'turn.end', reason: 'cancelled', rounds: 1 });
    await chat.page.getByTestId('todo-list').waitFor({ state: 'detached' });
    assert.equal(await chat.page.getByTestId('plan-approval').count(), 0);
    assert.deepEqual(chat.pageErrors, []);
  });
});
