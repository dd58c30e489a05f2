import * as assert from 'node:assert/strict';
import { deliverFiles } from '../fixtures/page-files';
import { CHAT } from './harness/selectors';
import { scriptedModelSettings, useScriptedModel } from './harness/scripted-model';
import { useVsCode } from './harness/use-vscode';

describe('e2e: an image pasted into the composer', function () {
  const scripted = useScriptedModel();
  const vscode = useVsCode(() => ({ settings: scriptedModelSettings(scripted(), { 'snowpea.model.supportsImages': true }) }));

  it('shows its thumbnail and reaches the model as an image block with the pasted bytes', async function () {
    const model = scripted();
    const { workbench } = vscode();
    model.enqueue({ text: 'I see a gradient.' });
    await workbench.openSnowpea();
    const frame = await workbench.findWebviewFrame(CHAT.composer);

    // A real ClipboardEvent carrying a PNG drawn in the webview, as Ctrl+V delivers it.
    const [png] = await deliverFiles(frame, { how: 'paste', files: [{ name: 'shot.png', type: 'image/png', width: 120, height: 80 }] });
    await frame.locator('.attachment[data-name="shot.png"][data-status="ready"]').waitFor({ state: 'visible' });
    assert.equal(await frame.locator('.attachment[data-name="shot.png"] .attachment-dims').innerText(), '120×80');

    await frame.locator(CHAT.composer).fill('what is in this picture?');
    await frame.locator(CHAT.composer).press('Enter');
    await frame.locator(CHAT.transcript).getByText('I see a gradient.').waitFor({ state: 'visible' });

    const sent = model.chatRequests();
    assert.equal(sent.length, 1);
    const user = sent[0].body.messages.at(-1);
    assert.equal(user.role, 'user');
    assert.ok(Array.isArray(user.content), 'a message with parts');
    const images = user.content.filter((p: { type: string }) => p.type === 'image_url');
    assert.equal(images.length, 1, 'one image block');
    assert.equal(images[0].image_url.url, `data:image/png;base64,${png!.base64}`, 'the pasted bytes, unchanged (small enough not to be downscaled)');
    assert.ok(user.content.some((p: { type: string; text?: string }) => p.type === 'text' && /what is in this picture\?/.test(p.text ?? '')));
    assert.equal(await frame.locator('.attachment').count(), 0, 'the composer is cleared after sending');
  });
});
