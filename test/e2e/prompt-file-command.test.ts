import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CHAT } from './harness/selectors';
import { scriptedModelSettings, useScriptedModel } from './harness/scripted-model';
import { useVsCode } from './harness/use-vscode';

const PROMPT = '---\ndescription: Explain a file simply\nargument-hint: file=<path>\nmodel: GPT-5 (copilot)\n---\nExplain ${input:file} in plain words (E2E-PROMPT-BODY).\n';

describe('e2e: a prompt file runs as a slash command (issue 30 item 4)', function () {
  const scripted = useScriptedModel();
  const vscode = useVsCode(() => ({
    settings: scriptedModelSettings(scripted()),
    workspaceFiles: { '.github/prompts/explain.prompt.md': PROMPT, 'src/a.ts': 'export const a = 1;\n' },
  }));

  it('/explain from .github/prompts/explain.prompt.md: in the slash menu, sent with its text filled in after what was typed; a new prompt file joins the menu and the Tools tree', async function () {
    const model = scripted();
    const { workbench, workspace } = vscode();
    await workbench.openSnowpea();
    await workbench.expandView('Chat');
    const frame = await workbench.findWebviewFrame(CHAT.composer);
    const composer = frame.locator(CHAT.composer);
    await composer.click();
    await composer.pressSequentially('/exp');
    const menu = frame.getByRole('listbox', { name: 'Commands' });
    const row = menu.getByRole('option', { name: /explain/ });
    await row.waitFor({ state: 'visible' });
    assert.match(await row.innerText(), /\/explain file=<path>\s*Explain a file simply\s*\.github\/prompts\/explain\.prompt\.md/);
    await composer.press('Enter');
    await menu.waitFor({ state: 'detached' });
    assert.equal(await composer.inputValue(), '/explain ');

    model.enqueue({ text: 'It exports a constant.' });
    await composer.pressSequentially('file=src/a.ts');
    await composer.press('Enter');
    await frame.locator(CHAT.transcript).getByText('It exports a constant.').waitFor({ state: 'visible' });
    const sent = model.chatRequests()[0].body.messages.at(-1);
    assert.equal(sent.content, '/explain file=src/a.ts\n[/explain: .github/prompts/explain.prompt.md]\nExplain src/a.ts in plain words (E2E-PROMPT-BODY).');
    assert.equal(model.chatRequests()[0].body.model, 'scripted-model', 'the model the file names is not used');
    assert.equal(await frame.locator(`${CHAT.transcript} [data-kind="user"]`).first().innerText(), '/explain file=src/a.ts', 'the chat shows what was typed');

    // A prompt file added on disk: the menu and the Tools tree follow without a reload.
    fs.writeFileSync(path.join(workspace, '.github', 'prompts', 'later.prompt.md'), '---\ndescription: Added later\n---\nLater.\n');
    await frame.getByRole('button', { name: 'Send' }).waitFor({ state: 'visible' });
    await composer.fill('');
    await composer.pressSequentially('/lat');
    await menu.getByRole('option', { name: /later/ }).waitFor({ state: 'visible' });
    await composer.press('Escape');
    await workbench.expandViewAlone('Tools');
    await workbench.collapseTreeRow('Tools', /^Core \(\d+\)$/);
    for (const group of ['browser (8)', 'git (4)', 'media (5)', 'memory (1)', 'fs (1)', 'todo (1)']) await workbench.collapseTreeRow('Tools', group);
    await workbench.expandTreeRow('Tools', 'Commands (2)');
    await workbench.treeRow('Tools', '/explain file=<path>').first().waitFor({ state: 'visible' });
    assert.match(await workbench.treeRowDescription('Tools', '/explain file=<path>'), /^\.github\/prompts\/explain\.prompt\.md · Explain a file simply$/);
  });
});
