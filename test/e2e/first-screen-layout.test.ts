import * as assert from 'node:assert/strict';
import type { Frame, Page } from 'playwright-core';
import { CHAT } from './harness/selectors';
import { useScriptedModel } from './harness/scripted-model';
import { setSidebarWidth } from './harness/shoot';
import { useVsCode } from './harness/use-vscode';
import type { Workbench } from './harness/workbench';

/**
 * Issue 29, "the first screen": what a new user meets at VS Code's default layout. The window is
 * 1440x900, the side bar 300 px (then 200 px), Snowpea's views as shipped (nothing collapsed or
 * widened by the test), the folder not trusted and no key: the setup card and Restricted Mode,
 * then a local endpoint set (Restricted Mode alone), then a long turn. In each state the composer
 * (its message box and Send) must lie wholly inside the chat webview's visible frame, and the chat
 * must not scroll sideways.
 */
const WINDOW = { width: 1440, height: 900 } as const;
const WIDTHS = [300, 200] as const;
const FILES = Array.from({ length: 12 }, (_, i) => `src/module-${String(i + 1).padStart(2, '0')}.ts`);

describe('e2e: the first screen at the default layout (issue 29)', function () {
  const scripted = useScriptedModel({ models: ['scripted-model'] });
  const vscode = useVsCode(() => ({
    env: { OPENAI_API_KEY: '' },
    settings: { 'snowpea.model.name': 'scripted-model' },
    trusted: false,
    workspaceFiles: Object.fromEntries([['README.md', '# app\n'], ...FILES.map((f, i) => [f, `export const value${i + 1} = ${i + 1};\n`])]),
  }));

  before('a 1440x900 window with the side bar at 300 px, Snowpea open as shipped', async function () {
    const { page, workbench } = vscode();
    await page.setViewportSize(WINDOW);
    await workbench.openSnowpea();
    await setSidebarWidth(page, 300);
  });

  it('Tools is contributed collapsed, so the chat gets nearly the whole side bar', async function () {
    const { page, workbench } = vscode();
    const tools = workbench.viewPane('Tools').locator('.pane-header');
    await tools.waitFor({ state: 'visible' });
    assert.equal(await tools.getAttribute('aria-expanded'), 'false');
    const frame = await workbench.findWebviewFrameOver('.part.sidebar', CHAT.composer);
    const chat = await frameBox(frame);
    const sidebar = (await page.locator('.part.sidebar').boundingBox())!;
    // What is left for the side bar's title, the two view headers and borders.
    assert.ok(chat.height >= sidebar.height - 110, `the chat is ${chat.height} px tall in a ${sidebar.height} px side bar`);
  });

  it('first run in Restricted Mode (setup card and the trust notice): the composer is visible at 300 and 200 px', async function () {
    const { page, workbench } = vscode();
    const frame = await workbench.findWebviewFrameOver('.part.sidebar', '[data-kind="setup"]');
    await frame.locator('[data-kind="restricted"]').first().waitFor({ state: 'visible' });
    await checkEachWidth(page, workbench, 'first run');
  });

  it('Restricted Mode with a local endpoint set: the composer is visible at 300 and 200 px', async function () {
    const { page, workbench } = vscode();
    // As a new user does it: the card's Open Settings, Base Url on the User tab.
    const frame = await workbench.findWebviewFrameOver('.part.sidebar', CHAT.composer);
    await frame.locator('[data-kind="setup"]').getByRole('button', { name: 'Open Settings' }).click();
    const editor = page.locator('.settings-editor');
    await editor.locator('.settings-tabs-widget .action-label', { hasText: /^User$/ }).click();
    const input = editor.locator('.setting-item-contents', { has: page.locator('.setting-item-title', { hasText: /Base Url/i }) }).first().locator('.setting-item-control input').first();
    await input.waitFor({ state: 'visible' });
    await input.fill(scripted().baseUrl);
    await input.press('Tab');
    await frame.locator('[data-kind="setup"]').waitFor({ state: 'detached' });
    await frame.locator('[data-kind="restricted"]').first().waitFor({ state: 'visible' });
    // The Settings editor closed again: the window as it was (with it open the side bar's sash would not narrow).
    await workbench.runCommand('View: Close All Editors');
    await page.locator('.settings-editor').waitFor({ state: 'detached' });
    await checkEachWidth(page, workbench, 'restricted');
  });

  it('after a long turn (twelve tool rounds and a long answer): the composer is visible at 300 and 200 px', async function () {
    const model = scripted();
    const { page, workbench } = vscode();
    await setSidebarWidth(page, 300);
    const answer = `All twelve modules export one constant each. ${'Each value is its module number, so module-07 exports 7 and module-12 exports 12. '.repeat(6)}Nothing else is exported.`;
    model.enqueue(
      ...FILES.map((path, i) => ({ ...(i === 0 ? { text: 'I will read every module.' } : {}), toolCalls: [{ name: 'read_file', arguments: JSON.stringify({ path }) }] })),
      { text: answer },
    );
    const frame = await workbench.findWebviewFrameOver('.part.sidebar', CHAT.composer);
    await frame.locator(CHAT.composer).fill('What does each module in src/ export? Read them all.');
    await frame.locator(CHAT.composer).press('Enter');
    await frame.locator(CHAT.transcript).getByText('Nothing else is exported.').waitFor({ state: 'visible' });
    await frame.getByRole('button', { name: 'Send' }).waitFor({ state: 'visible' });
    assert.equal(model.chatRequests().length, FILES.length + 1);
    assert.ok((await frame.locator('[data-kind="tool"]').count()) >= FILES.length, 'every tool round shows a card');
    await checkEachWidth(page, workbench, 'long turn');
  });
});

/** At each side bar width: the composer in view and no sideways scrolling. */
async function checkEachWidth(page: Page, workbench: Workbench, state: string): Promise<void> {
  for (const width of WIDTHS) {
    await setSidebarWidth(page, width);
    const frame = await workbench.findWebviewFrameOver('.part.sidebar', CHAT.composer);
    await assertComposerVisible(frame, `${state} at ${width} px`);
    await assertNoHorizontalOverflow(frame, `${state} at ${width} px`);
  }
  await setSidebarWidth(page, 300);
}

/** The webview's frame as drawn in the page (the visible part of the chat). */
async function frameBox(frame: Frame): Promise<{ x: number; y: number; width: number; height: number }> {
  const box = await (await frame.frameElement()).boundingBox();
  if (!box) throw new Error('the chat webview has no box (not shown?)');
  return box;
}

/** The message box and Send lie wholly inside the webview's visible frame (page coordinates). */
async function assertComposerVisible(frame: Frame, where: string): Promise<void> {
  const view = await frameBox(frame);
  const parts = { 'the message box': frame.locator(CHAT.composer), 'Send': frame.getByRole('button', { name: 'Send' }) };
  for (const [name, locator] of Object.entries(parts)) {
    await locator.waitFor({ state: 'visible' });
    const box = (await locator.boundingBox())!;
    const inside = box.x >= view.x - 0.5 && box.y >= view.y - 0.5 && box.x + box.width <= view.x + view.width + 0.5 && box.y + box.height <= view.y + view.height + 0.5;
    assert.ok(inside, `${where}: ${name} at ${fmt(box)} is not inside the chat's visible frame ${fmt(view)}`);
  }
}

/**
 * Nothing in the chat reaches past its right edge: neither the document nor any element (code
 * blocks, which scroll inside themselves by design, excepted), so no sideways scrollbar appears.
 */
async function assertNoHorizontalOverflow(frame: Frame, where: string): Promise<void> {
  const offenders = await frame.evaluate(() => {
    // Runs in the webview (this project's tsconfig has no DOM library).
    const { document, getComputedStyle } = globalThis as any;
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    const doc = document.scrollingElement ?? document.documentElement;
    if (doc.scrollWidth > width + 1) out.push(`the document is ${doc.scrollWidth} px wide in ${width} px`);
    for (const el of Array.from(document.body.querySelectorAll('*')) as any[]) {
      if (el.closest('pre')) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const style = getComputedStyle(el);
      const scrolls = (style.overflowX === 'auto' || style.overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1;
      if (r.right > width + 1 || r.left < -1 || scrolls) {
        const name = `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`;
        out.push(`${name} ${scrolls ? `scrolls sideways (${el.scrollWidth} in ${el.clientWidth} px)` : `spans ${Math.round(r.left)}..${Math.round(r.right)} in ${width} px`}`);
      }
    }
    return out.slice(0, 8);
  });
  assert.deepEqual(offenders, [], `${where}: the chat overflows sideways`);
}

const fmt = (b: { x: number; y: number; width: number; height: number }) => `(${Math.round(b.x)},${Math.round(b.y)} ${Math.round(b.width)}x${Math.round(b.height)})`;
