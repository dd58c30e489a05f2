import assert from 'node:assert/strict';
import { parseWebviewMessage } from '../../extension/protocol';
import { useWebviewEnv } from './harness/suite';

describe('webview: the first-run card in Restricted Mode (issue 18, setup in the side bar)', function () {
  const env = useWebviewEnv();

  it('says the folder is in Restricted Mode, what is off until it is trusted, and opens Manage Workspace Trust', async () => {
    const chat = await env.open();
    await chat.init({ setupNeeded: true, workspaceTrusted: false });
    const card = chat.page.locator('[data-kind="setup"]');
    const restricted = card.locator('[data-kind="restricted"]');
    await restricted.waitFor();
    const text = await restricted.innerText();
    assert.match(text, /Restricted Mode/);
    for (const off of [/writes/, /commands/, /git/, /MCP servers/, /model endpoint/]) assert.match(text, off, `names what is off: ${off}`);
    assert.match(text, /Manage Workspace Trust/);
    // One card: the notice is not repeated beside it.
    assert.equal(await chat.page.locator('[data-kind="restricted"]').count(), 1);

    await restricted.getByRole('button', { name: 'Manage Workspace Trust' }).click();
    const [posted] = await chat.waitForPosted('runCommand');
    assert.deepEqual(posted, { type: 'runCommand', command: 'workbench.trust.manage' });
    assert.ok(parseWebviewMessage(posted).ok, 'the host accepts the command');
  });

  it('says nothing about Restricted Mode in a trusted folder', async () => {
    const chat = await env.open();
    await chat.init({ setupNeeded: true, workspaceTrusted: true });
    await chat.page.locator('[data-kind="setup"]').waitFor();
    assert.equal(await chat.page.getByText(/Restricted Mode/).count(), 0);
    assert.equal(await chat.page.getByRole('button', { name: 'Manage Workspace Trust' }).count(), 0);
  });

  it('keeps the Restricted Mode notice with its button once setup is done, and drops it when the folder is trusted', async () => {
    const chat = await env.open();
    await chat.init({ setupNeeded: false, workspaceTrusted: false });
    const notice = chat.page.locator('[data-kind="restricted"]');
    await notice.waitFor();
    assert.match(await notice.innerText(), /Restricted Mode/);
    await notice.getByRole('button', { name: 'Manage Workspace Trust' }).waitFor();
    await chat.host({ type: 'header', sessionId: chat.sessionId, title: 'New chat', model: 'test-model', workspaceTrusted: true, setupNeeded: false, supportsImages: true });
    await notice.waitFor({ state: 'detached' });
  });
});
