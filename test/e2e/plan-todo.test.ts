import * as assert from 'node:assert/strict';
import { CHAT } from './harness/selectors';
import { scriptedModelSettings, useScriptedModel } from './harness/scripted-model';
import { useVsCode } from './harness/use-vscode';

const PLAN_APPROVED = 'Plan approved. Carry it out now, step by step.';

/** A todo_write call with these steps. */
function todoWrite(id: string, todos: Array<[string, 'pending' | 'in_progress' | 'done']>) {
  return { toolCalls: [{ id, name: 'todo_write', arguments: JSON.stringify({ todos: todos.map(([text, status]) => ({ text, status })) }) }] };
}

const toolNames = (body: { tools?: Array<{ function: { name: string } }> }) => (body.tools ?? []).map((t) => t.function.name);
const systemPrompt = (body: { messages: Array<{ role: string; content: string }> }) => body.messages[0].content;

describe('e2e: plan mode with its todo list, approved into act mode (issue 30 item 2)', function () {
  const scripted = useScriptedModel();
  const vscode = useVsCode(() => ({ settings: scriptedModelSettings(scripted()), workspaceFiles: { 'cli.ts': 'export function main() {}\n' } }));

  it('Plan on: the model keeps its steps with todo_write, pinned while it works and under its plan; Approve plan switches to act and the model carries it out', async function () {
    const model = scripted();
    const { workbench } = vscode();
    // The plan's second request waits until the test has looked at the pinned list.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    model.setResponder(async (_body, i) => {
      if (i === 0) return todoWrite('call_plan', [['read cli.ts', 'in_progress'], ['add the --verbose flag', 'pending'], ['run the tests', 'pending']]);
      if (i === 1) {
        await released;
        return { text: 'Plan:\n1. Read cli.ts.\n2. Add the --verbose flag.\n3. Run the tests.' };
      }
      if (i === 2) return todoWrite('call_act', [['read cli.ts', 'done'], ['add the --verbose flag', 'done'], ['run the tests', 'done']]);
      return { text: i === 3 ? 'All three steps are done.' : `reply ${i}` };
    });

    await workbench.openSnowpea();
    const frame = await workbench.findWebviewFrame(CHAT.composer);
    const transcript = frame.locator(CHAT.transcript);
    const toggle = frame.getByTestId('plan-toggle');
    const todos = frame.getByTestId('todo-list');
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
    await toggle.click();
    await frame.locator('[data-testid="plan-toggle"][aria-pressed="true"]').waitFor();

    await frame.locator(CHAT.composer).fill('plan a --verbose flag for the CLI');
    await frame.locator(CHAT.composer).press('Enter');

    // While the plan is being written, its steps are pinned above the composer.
    await todos.waitFor({ state: 'visible' });
    await todos.getByText('add the --verbose flag').waitFor();
    assert.match(await todos.locator('.todo-head').innerText(), /Todo 0\/3/);
    assert.deepEqual(await todos.locator('.todo-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-status'))), ['in_progress', 'pending', 'pending']);
    assert.equal(await frame.getByTestId('plan-approval').count(), 0, 'nothing to approve while the plan is written');
    release();

    // The plan, with Approve under it and the list still pinned.
    await transcript.getByText('Add the --verbose flag.').waitFor({ state: 'visible' });
    const approve = frame.getByRole('button', { name: /Approve plan → switch to Act/ });
    await approve.waitFor({ state: 'visible' });
    await todos.waitFor({ state: 'visible' });
    const [plan1, plan2] = model.chatRequests().map((r) => r.body);
    assert.match(systemPrompt(plan1), /Mode: plan\./);
    assert.ok(toolNames(plan1).includes('todo_write'), 'todo_write is at hand in plan mode');
    assert.match(JSON.stringify(plan2.messages.at(-1)), /todo list saved: 0 done, 1 in progress, 2 pending/);

    await approve.click();
    await frame.locator('[data-testid="plan-toggle"][aria-pressed="false"]').waitFor();
    await transcript.getByText('All three steps are done.').waitFor({ state: 'visible' });
    await frame.getByRole('button', { name: 'Send' }).waitFor({ state: 'visible' });

    // Act mode: the approval is the turn's message, the plan-mode line is gone, and the list was kept up to date.
    const act = model.chatRequests()[2].body;
    assert.equal(act.messages.at(-1).content, PLAN_APPROVED);
    assert.doesNotMatch(systemPrompt(act), /Mode: plan\./);
    assert.ok(toolNames(act).includes('todo_write'), 'the approved plan\'s list can still be updated');
    assert.ok(toolNames(act).includes('edit_file'));
    assert.equal(model.chatRequests().length, 4);
    await todos.waitFor({ state: 'hidden' });
    assert.equal(await frame.getByTestId('plan-approval').count(), 0);
    assert.deepEqual(await workbench.errorNotificationTexts(), []);
  });
});
