import assert from 'node:assert/strict';
import { parseWebviewMessage } from '../../extension/protocol';
import { useWebviewEnv } from './harness/suite';

describe('webview: the first-run card in Restricted Mode (issue 18, setup in the side bar)', function () {
  const env = useWebviewEnv();

  it('says the folder is in Restricted Mode, what is off until it is trusted, and opens Manage Workspace Trust', async () => {
    const chat = await env.open();
    await chat.init({ setupNeeded: true, workspaceTrusted: false });
    await chat.page.locator('[data-kind="setup"]').waitFor();
    const restricted = chat.page.locator('[data-kind="restricted"]');
    await restricted.waitFor();
    // One line (issue 29); what is off opens on request.
    assert.match(await restricted.innerText(), /Restricted Mode: read tools only/);
    await restricted.getByRole('button', { name: 'More about Restricted Mode' }).click();
    const text = await restricted.innerText();
    assert.match(text, /Restricted Mode/);
    for (const off of [/writes/, /commands/, /git/, /MCP servers/, /model endpoint/]) assert.match(text, off, `names what is off: ${off}`);
    assert.match(text, /Manage Workspace Trust/);
    // One notice: it is not repeated.
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

  it('closes the Restricted Mode notice, remembers it in the saved state, reopens it from the header, and shows it again after trust is lost', async () => {
    const chat = await env.open();
    await chat.init({ setupNeeded: false, workspaceTrusted: false });
    const notice = chat.page.locator('[data-kind="restricted"]');
    const badge = chat.page.locator('[data-kind="restricted-badge"]');
    await notice.getByRole('button', { name: 'Close the Restricted Mode notice' }).click();
    await notice.waitFor({ state: 'detached' });
    await badge.waitFor();
    await chat.page.waitForFunction(() => (globalThis as any).__fakeHost.state?.restrictedDismissed === true);

    // The view comes back (hidden and shown, or the window reloaded): still closed, the shield still there.
    const again = await env.open({ initialState: await chat.savedState() });
    await again.init({ setupNeeded: false, workspaceTrusted: false });
    await again.page.locator('[data-kind="restricted-badge"]').waitFor();
    assert.equal(await again.page.locator('[data-kind="restricted"]').count(), 0);
    await again.page.getByRole('button', { name: 'Restricted Mode' }).click();
    await again.page.locator('[data-kind="restricted"]').waitFor();
    await again.page.locator('[data-kind="restricted-badge"]').waitFor({ state: 'detached' });

    // Trusted, then restricted again: the notice is back even though it had been closed.
    await notice.waitFor({ state: 'detached' });
    const header = { type: 'header' as const, sessionId: chat.sessionId, title: 'New chat', model: 'test-model', setupNeeded: false, supportsImages: true };
    await chat.host({ ...header, workspaceTrusted: true });
    await badge.waitFor({ state: 'detached' });
    await chat.host({ ...header, workspaceTrusted: false });
    await notice.waitFor();
  });
});
