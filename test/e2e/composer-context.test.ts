import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chatTurn, scriptedModelSettings, useScriptedModel } from './harness/scripted-model';
import { CHAT } from './harness/selectors';
import { useVsCode } from './harness/use-vscode';

/** The text parts of the last user message the model received. */
function lastUserParts(body: { messages: Array<{ role: string; content: unknown }> }): string[] {
  const user = body.messages.filter((m) => m.role === 'user').at(-1)!;
  return typeof user.content === 'string' ? [user.content] : (user.content as Array<{ type: string; text?: string }>).map((p) => p.text ?? `<${p.type}>`);
}

/** Issue 30, item 5: @problems from VS Code's own diagnostics, and the model picker with its effort, in a real VS Code (code-server). */
describe('e2e: the composer: @problems and the model picker (issue 30)', function () {
  const scripted = useScriptedModel({ models: ['scripted-model', 'o4-mini'] });
  const vscode = useVsCode(() => ({
    settings: scriptedModelSettings(scripted()),
    workspaceFiles: { 'open.json': '{\n  "broken": ,\n  "name": "demo"\n}\n', 'README.md': '# demo\n' },
  }));

  it("@problems sends the workspace's diagnostics (the JSON language service's error) after the typed text", async function () {
    const model = scripted();
    const { workbench } = vscode();
    const page = workbench.page;
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible' });
    await input.fill('open.json');
    await page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused', { hasText: 'open.json' }).waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.monaco-editor .squiggly-error').first().waitFor();

    model.enqueue({ text: 'I see the JSON error.' });
    // The prompt does not end in the mention: Enter there would pick it from the @ popup instead of sending.
    await chatTurn(workbench, 'see @problems: what is wrong here?', 'I see the JSON error.');
    // The typed text first, as typed, then the block (text parts reach the endpoint as one string).
    const sent = lastUserParts(model.chatRequests().at(-1)!.body).join('\n');
    assert.match(sent, /^see @problems: what is wrong here\?\n<problems errors="1" warnings="0">\nopen\.json:2:13 error \[json[^\]]*\] Value expected\n<\/problems>$/);
  });

  it("the model picker lists the endpoint's models; the pick and its effort go with the next request; no settings file is written", async function () {
    const model = scripted();
    const { workbench } = vscode();
    const userSettings = path.join(vscode().dir, 'user-data', 'User', 'settings.json');
    const before = fs.readFileSync(userSettings, 'utf8');
    await workbench.openSnowpea();
    await workbench.expandView('Chat');
    const frame = await workbench.findWebviewFrame(CHAT.composer);
    const button = frame.locator('[data-kind="model-picker"]');
    assert.equal(await frame.locator('.composer .model').getAttribute('title'), 'scripted-model');
    await button.click();
    const options = frame.locator('[data-kind="model-panel"] [role="option"]');
    await options.filter({ hasText: 'o4-mini' }).waitFor();
    assert.deepEqual(await options.allInnerTexts(), ['scripted-model\ndefault', 'o4-mini'], "the endpoint's GET /v1/models, the default first");
    await options.filter({ hasText: 'o4-mini' }).click();
    // The host's header confirms the pick; o4-mini takes a reasoning effort, so its control appears.
    const effort = frame.getByRole('combobox', { name: 'Reasoning effort' });
    await effort.waitFor();
    assert.equal(await frame.locator('.composer .model').getAttribute('title'), 'o4-mini');
    await effort.selectOption('high');
    await workbench.page.locator('.statusbar-item', { hasText: 'o4-mini' }).first().waitFor();

    model.enqueue({ text: 'thinking hard on o4-mini' });
    await chatTurn(workbench, 'hello', 'thinking hard on o4-mini');
    const body = model.chatRequests().at(-1)!.body as Record<string, unknown>;
    assert.equal(body.model, 'o4-mini');
    assert.equal(body.reasoning_effort, 'high');
    assert.equal(fs.readFileSync(userSettings, 'utf8'), before, 'the user settings are untouched');
    assert.equal(fs.existsSync(path.join(vscode().workspace, '.vscode', 'settings.json')), false, 'no workspace settings are written');
  });

  it("@terminal sends the active terminal's last command, its output and exit code (shell integration)", async function () {
    const model = scripted();
    const { workbench } = vscode();
    const page = workbench.page;
    await workbench.runCommand('Terminal: Create New Terminal');
    // The shell reports its commands once its integration has loaded: its prompt has a decoration then.
    await page.locator('.terminal-wrapper.active .xterm').waitFor();
    await page.locator('.terminal-wrapper.active .xterm').click();
    // VS Code hands shell-integration output to extensions in buffered batches, and a batch still in
    // flight when the command ends is lost to them (a known VS Code race, microsoft/vscode#237208):
    // the pauses let the output arrive before the command's end, as a real command's usually does.
    await page.keyboard.type('sleep 1; echo snowpea-$((6*7)); printf "\\033[31mred\\033[0m\\n"; sleep 1; false');
    await page.keyboard.press('Enter');
    // A failed command gets an error decoration beside it: shell integration saw it end.
    await page.locator('.terminal-wrapper.active .terminal-command-decoration.codicon-terminal-decoration-error').first().waitFor({ timeout: 60_000 });

    model.enqueue({ text: 'the command printed 42 and failed' });
    await chatTurn(workbench, 'see @terminal: why did it fail?', 'the command printed 42 and failed');
    const sent = lastUserParts(model.chatRequests().at(-1)!.body).join('\n');
    assert.match(sent, /^see @terminal: why did it fail\?\n<terminal name="[^"]+" cwd="[^"]+" exit="1">\n\$ sleep 1; echo snowpea-\$\(\(6\*7\)\); printf [^\n]+; sleep 1; false\nsnowpea-42\nred\n\[exit code 1\]\n<\/terminal>$/);
  });
});
