import assert from 'node:assert/strict';
import type { ChatPage } from './harness/chat-page';
import { overflowing } from './harness/layout';
import { useWebviewEnv } from './harness/suite';

/**
 * Issue 18, "Setup in the side bar": the chat is laid out for a side bar of 220-400 px. At a
 * narrow width nothing may stick out sideways (a webview scrolled sideways hides the chat).
 */

async function fullyVisible(chat: ChatPage, name: string): Promise<void> {
  const button = chat.page.getByRole('button', { name });
  await button.waitFor();
  const box = await button.boundingBox();
  const card = await chat.page.locator('[data-kind="setup"]').boundingBox();
  const width = await chat.page.evaluate(() => (globalThis as any).document.documentElement.clientWidth);
  assert.ok(box && card, `${name} has a box`);
  assert.ok(box.x >= 0 && box.x + box.width <= width, `${name} is inside the view: [${box.x}, ${box.x + box.width}] of ${width}`);
  assert.ok(box.x >= card.x && box.x + box.width <= card.x + card.width, `${name} stays inside the setup card's border`);
  assert.ok(box.width >= 40, `${name} is not squeezed to nothing (${box.width} px)`);
}

describe('webview: the chat at side-bar widths (issue 18, setup in the side bar)', function () {
  const env = useWebviewEnv();

  const longWord = 'supercalifragilistic'.repeat(12);
  const longLine = 'const aVeryLongIdentifierName = ' + 'someFunction(argumentNumberOne, argumentNumberTwo) + '.repeat(8) + '0;';

  async function fillChat(chat: ChatPage): Promise<void> {
    await chat.init({ setupNeeded: true, workspaceTrusted: false, title: 'A chat with a rather long title that needs to be cut somewhere' });
    await chat.events(
      { type: 'turn.start', turn: 1, prompt: longWord },
      { type: 'round.start', round: 1 },
      {
        type: 'tool.call',
        callId: 'c1',
        tool: 'run_command',
        args: JSON.stringify({ command: `npm run ${longWord} -- --reporter=${longWord}`, cwd: `packages/${longWord}/src` }),
        title: `run: npm run ${longWord} -- --reporter=${longWord}`,
        summary: '',
      },
      {
        type: 'tool.result',
        callId: 'c1',
        tool: 'run_command',
        ok: true,
        summary: `ran npm run ${longWord} in packages/${longWord}/src (exit 0)`,
        result: `${longLine}\n${longWord}\n`,
      },
    );
    // Open the tool card too: its arguments and result are long lines.
    await chat.toolCard('c1').getByRole('button', { expanded: false }).click();
    await chat.toolCard('c1').locator('.tool-details').waitFor();
    await chat.events(
      { type: 'text.delta', text: `Here is ${longWord} and a path src/${longWord}/index.ts.\n\n\`\`\`ts\n${longLine}\n\`\`\`\n\nInline \`${longWord}\` too.` },
      { type: 'turn.end', reason: 'done', rounds: 1 },
    );
    await chat.items('assistant').locator('pre').waitFor();
    await chat.composer.fill(longWord);
  }

  for (const width of [220, 260, 400]) {
    it(`has no horizontal overflow anywhere at ${width} px: setup card, a long tool card, code block and unbroken word`, async () => {
      const chat = await env.open();
      await chat.page.setViewportSize({ width, height: 1400 });
      await fillChat(chat);
      await chat.toolCard('c1').locator('.tool-details').waitFor();

      const { scrollWidth, clientWidth, outside, sideways } = await overflowing(chat.page);
      assert.deepEqual(outside, [], `elements outside the ${width} px view`);
      assert.deepEqual(sideways, [], 'boxes (other than code blocks) that scroll sideways');
      assert.ok(scrollWidth <= clientWidth, `the page does not scroll sideways: scrollWidth ${scrollWidth} > clientWidth ${clientWidth}`);

      await fullyVisible(chat, 'Set API Key');
      await fullyVisible(chat, 'Open Settings');
      assert.deepEqual(chat.pageErrors, []);
    });
  }

  it('shows both setup buttons whole at 260 px, and clicking Open Settings leaves the view where it was', async () => {
    const chat = await env.open();
    await chat.page.setViewportSize({ width: 260, height: 600 });
    await chat.init({ setupNeeded: true });
    await fullyVisible(chat, 'Set API Key');
    await fullyVisible(chat, 'Open Settings');
    await chat.page.getByRole('button', { name: 'Open Settings' }).click();
    await chat.page.getByRole('button', { name: 'Set API Key' }).click();
    const commands = (await chat.posted()).filter((m) => m.type === 'runCommand').map((m) => m.command);
    assert.deepEqual(commands, ['snowpea.openSettings', 'snowpea.setApiKey']);
    const scrollX = await chat.page.evaluate(() => (globalThis as any).document.scrollingElement.scrollLeft);
    assert.equal(scrollX, 0, 'the webview is not scrolled sideways');
  });
});
