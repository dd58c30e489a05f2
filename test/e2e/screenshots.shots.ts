import * as assert from 'node:assert/strict';
import type { Frame, Locator } from 'playwright-core';
import { CHAT } from './harness/selectors';
import { useScriptedModel } from './harness/scripted-model';
import { MAX_SHOT_BYTES, setSidebarWidth, shoot } from './harness/shoot';
import { useVsCode } from './harness/use-vscode';
import type { Workbench } from './harness/workbench';

/**
 * The README's screenshots (issue 18: "the README shows what a new user will see"), each a real
 * scene in code-server against the scripted model: fixed prompts, answers, token counts, window
 * size, side bar width and theme, so a rerun changes little. Named .shots.ts so the normal e2e run
 * (its .test.ts files) leaves it out: two more VS Code sessions there would add about a minute
 * and refresh nothing. `npm run screenshots` runs it and writes media/screenshots/; run by hand
 * (npx mocha --node-option import=tsx --timeout 180000 --exit test/e2e/screenshots.shots.ts) it
 * writes test-results/e2e/screenshots/ instead. Each test stands alone (it starts from a new chat),
 * so `npm run screenshots -- --grep <name>` retakes one. To add a shot: an `it` that scripts the
 * model, sends a prompt, waits for the scene and calls `shot(name, regions)`; then embed
 * media/screenshots/<name>.png in README.md (test/unit/docs/readme-screenshots.test.ts checks it).
 */
const GREET_TS = `/** A greeting for \`name\`; strangers get a generic one. */
export function greet(name: string): string {
  return name ? \`Hello, \${name}!\` : 'Hello, stranger!';
}
`;

/**
 * The window every shot is taken in: what a new user gets (issue 29): a 1440x900 window, the side
 * bar at its default 300 px, VS Code's default light theme, and Snowpea's views as shipped (Tools
 * collapsed under the chat).
 */
const WINDOW = { width: 1440, height: 900, sidebar: 300, theme: 'Default Light Modern' } as const;

/**
 * A VS Code session for shots (`settings` adds user settings, read in `before`), with `shot` and
 * `showSnowpea` and `newChat` bound to it.
 */
function useShotWindow(settings: () => Record<string, unknown>, { trusted = true } = {}) {
  const vscode = useVsCode(() => ({
    trusted,
    // No key: a local endpoint needs none, and the default endpoint without one shows the setup card.
    env: { OPENAI_API_KEY: '' },
    settings: { 'snowpea.model.name': 'gpt-4.1-mini', 'workbench.colorTheme': WINDOW.theme, ...settings() },
    workspaceFiles: { 'README.md': '# greeter\n', 'src/greet.ts': GREET_TS },
  }));

  before('a fixed window size and side bar width', async function () {
    const { page, workbench } = vscode();
    await page.setViewportSize({ width: WINDOW.width, height: WINDOW.height });
    await workbench.openSnowpea();
    await setSidebarWidth(page, WINDOW.sidebar);
  });

  /** Saves a shot of the side bar's band that holds `regions`; fails when the PNG is too big for the README. */
  async function shot(name: string, regions: Locator[], pad?: number): Promise<void> {
    const { page } = vscode();
    const { file, bytes } = await shoot(page, name, regions, { within: page.locator('.part.sidebar'), ...(pad === undefined ? {} : { pad }) });
    assert.ok(bytes < MAX_SHOT_BYTES, `${file} is ${Math.round(bytes / 1024)} KB (at most ${MAX_SHOT_BYTES / 1024} KB)`);
  }

  /** Snowpea in the side bar with one of its views open and the other collapsed. */
  async function showSnowpea(view: 'Chat' | 'Tools'): Promise<void> {
    const { workbench } = vscode();
    await workbench.openSnowpea();
    await setExpanded(workbench, view === 'Chat' ? 'Tools' : 'Chat', false);
    await setExpanded(workbench, view, true);
  }

  /** The chat open in the side bar, as a new chat; returns the chat's webview frame. */
  async function newChat(): Promise<Frame> {
    const { workbench } = vscode();
    await showSnowpea('Chat');
    await workbench.runCommand('Snowpea: New Chat');
    const frame = await workbench.findWebviewFrame(CHAT.composer);
    await frame.locator(CHAT.transcriptItem).first().waitFor({ state: 'detached' });
    return frame;
  }

  return { vscode, shot, showSnowpea, newChat };
}

/** The first sentence of the answer streamed before the stream waits, as one delta (see textChunkChars). */
const FIRST_SENTENCE = "`greet('')` returns `'Hello, stranger!'`.";

describe('e2e: the README screenshots, first run (issues 18, 29)', function () {
  // No key, the default endpoint and a folder not yet trusted: the chat starts with its setup card and the Restricted Mode notice.
  const { vscode, shot, newChat } = useShotWindow(() => ({}), { trusted: false });

  it('setup-card: the first screen, with no key, the default endpoint and Restricted Mode', async function () {
    const { page, workbench } = vscode();
    const frame = await newChat();
    const card = frame.locator('[data-kind="setup"]');
    await card.getByRole('button', { name: 'Open Settings' }).waitFor({ state: 'visible' });
    await shot('setup-card', [page.locator('.part.sidebar .composite.title'), card, frame.locator(CHAT.composer), frame.getByRole('button', { name: 'Send' })], 12);
    assert.deepEqual(await workbench.errorNotificationTexts(), []);
  });
});

describe('e2e: the README screenshots, a chat against the scripted model (issue 18)', function () {
  const scripted = useScriptedModel({ models: ['gpt-4.1-mini'], textChunkChars: FIRST_SENTENCE.length });
  const { vscode, shot, showSnowpea, newChat } = useShotWindow(() => ({ 'snowpea.model.baseUrl': scripted().baseUrl }));

  it('tools-tree: Core and the deferred groups in the Tools view', async function () {
    const { workbench, page } = vscode();
    await showSnowpea('Tools');
    // Every group collapsed, then Core opened: all groups fit in the shot. Each group row by row (a
    // click on the view's Collapse All can land while the tree refreshes and be lost).
    for (const group of [/^Core \(\d+\)$/, /^browser \(\d+\)$/, /^git \(\d+\)$/, /^media \(\d+\)$/]) await workbench.collapseTreeRow('Tools', group);
    await workbench.treeRow('Tools', 'fs (1)').first().waitFor({ state: 'visible' });
    await workbench.expandTreeRow('Tools', 'Core (13)');
    await workbench.treeRow('Tools', 'delegate_task').first().waitFor({ state: 'visible' });
    const rows = workbench.viewPane('Tools').locator('.pane-body .monaco-list-row');
    await shot('tools-tree', [page.locator('.part.sidebar .composite.title'), rows.last()]);
  });

  it('chat-tool-card: a turn in progress with a read_file card opened and the context meter', async function () {
    const model = scripted();
    const frame = await newChat();
    model.enqueue(
      {
        text: 'Let me read the function first.',
        toolCalls: [{ name: 'read_file', arguments: '{"path":"src/greet.ts"}' }],
        usage: { prompt_tokens: 9_412, completion_tokens: 38, cached_tokens: 0 },
      },
      {
        text: `${FIRST_SENTENCE} An empty name is falsy, so the ternary takes its second branch.`,
        usage: { prompt_tokens: 9_790, completion_tokens: 61, cached_tokens: 9_216 },
        // The role chunk and the first sentence, then the stream waits: the shot is taken mid-turn.
        fault: { stallAfterChunks: 2, stallMs: 120_000 },
      },
    );
    await frame.locator(CHAT.composer).fill("What does greet('') return?");
    await frame.locator(CHAT.composer).press('Enter');
    const card = frame.locator('[data-kind="tool"][data-status="ok"]');
    await card.locator('.tool-line').click();
    await card.locator('.tool-line[aria-expanded="true"]').waitFor();
    await frame.locator('[data-kind="assistant"][data-streaming="true"]').getByText('Hello, stranger!').waitFor({ state: 'visible' });
    const meter = frame.locator('[data-kind="meter"]');
    await meter.waitFor({ state: 'visible' });
    await shot('chat-tool-card', [vscode().page.locator('.part.sidebar .composite.title'), frame.locator(CHAT.composer), meter]);

    await frame.getByRole('button', { name: 'Stop' }).click();
    await frame.locator(CHAT.transcript).getByText('Stopped.').waitFor({ state: 'visible' });
  });

  it('approval-card: a command waiting for Allow once, Always allow or Deny', async function () {
    const model = scripted();
    const frame = await newChat();
    model.enqueue(
      {
        text: 'I will run the tests.',
        toolCalls: [{ name: 'shell', arguments: '{"command":"npm test -- --grep greet"}' }],
        usage: { prompt_tokens: 9_530, completion_tokens: 42, cached_tokens: 8_960 },
      },
      { text: 'Understood, I did not run the tests.', usage: { prompt_tokens: 9_700, completion_tokens: 12, cached_tokens: 9_472 } },
    );
    await frame.locator(CHAT.composer).fill('Run the tests for greet.');
    await frame.locator(CHAT.composer).press('Enter');
    const card = frame.locator('.request-card[data-kind="approval"][data-tool="shell"]');
    await card.getByRole('button', { name: 'Deny' }).waitFor({ state: 'visible' });
    await shot('approval-card', [card], 4);

    await card.getByRole('button', { name: 'Deny' }).click();
    await frame.locator(CHAT.transcript).getByText('Understood, I did not run the tests.').waitFor({ state: 'visible' });
  });
});

describe('e2e: the README screenshots, reviewing and undoing edits (issue 19)', function () {
  const scripted = useScriptedModel({ models: ['gpt-4.1-mini'] });
  // edit_file asks (the diff review); write_file runs without asking (its changes are listed for Keep or Undo).
  const { vscode, shot, newChat } = useShotWindow(() => ({
    'snowpea.model.baseUrl': scripted().baseUrl,
    'snowpea.approvals.autoApprove': ['write_file'],
    // The session folder lies inside this repository: no "open the parent repository?" toast in the shot.
    'git.openRepositoryInParentFolders': 'never',
  }));

  it('diff-review: a proposed edit in the diff editor, with Accept and Reject in its title bar and on the chat card', async function () {
    const model = scripted();
    const { page } = vscode();
    const frame = await newChat();
    const edit = { path: 'src/greet.ts', old_string: "'Hello, stranger!'", new_string: "'Hello there, whoever you are!'" };
    model.enqueue(
      { text: 'I will make the fallback friendlier.', toolCalls: [{ name: 'edit_file', arguments: JSON.stringify(edit) }], usage: { prompt_tokens: 9_530, completion_tokens: 58, cached_tokens: 8_960 } },
      { text: 'Understood, greet.ts stays as it is.', usage: { prompt_tokens: 9_700, completion_tokens: 12, cached_tokens: 9_472 } },
    );
    await frame.locator(CHAT.composer).fill('Make the greeting for strangers friendlier.');
    await frame.locator(CHAT.composer).press('Enter');
    const card = frame.locator('.request-card[data-kind="approval"][data-tool="edit_file"]');
    await card.locator('[data-kind="proposal"]').waitFor({ state: 'visible' });
    await page.locator('.monaco-diff-editor .editor.modified .view-line', { hasText: 'whoever you are' }).first().waitFor({ state: 'visible' });
    const { file, bytes } = await shoot(page, 'diff-review', [page.locator('.part.sidebar .composite.title'), card, page.locator('.part.editor')], { within: page.locator('.monaco-workbench') });
    assert.ok(bytes < MAX_SHOT_BYTES, `${file} is ${Math.round(bytes / 1024)} KB (at most ${MAX_SHOT_BYTES / 1024} KB)`);

    await card.getByRole('button', { name: 'Reject' }).click();
    await frame.locator(CHAT.transcript).getByText('Understood, greet.ts stays as it is.').waitFor({ state: 'visible' });
  });

  it('changed-files: the files a turn changed without asking, each with Keep and Undo', async function () {
    const model = scripted();
    const frame = await newChat();
    model.enqueue(
      {
        text: 'I will add a test and a changelog entry.',
        toolCalls: [
          { name: 'write_file', arguments: JSON.stringify({ path: 'src/greet.test.ts', content: "import { greet } from './greet';\n\nconsole.assert(greet('') === 'Hello, stranger!');\n" }) },
          { name: 'write_file', arguments: JSON.stringify({ path: 'README.md', content: '# greeter\n\nSays hello, even to strangers.\n' }) },
        ],
        usage: { prompt_tokens: 9_530, completion_tokens: 90, cached_tokens: 8_960 },
      },
      { text: 'Added src/greet.test.ts and a line to the README.', usage: { prompt_tokens: 9_800, completion_tokens: 14, cached_tokens: 9_472 } },
    );
    await frame.locator(CHAT.composer).fill('Add a test for greet and describe it in the README.');
    await frame.locator(CHAT.composer).press('Enter');
    await frame.locator(CHAT.transcript).getByText('Added src/greet.test.ts').waitFor({ state: 'visible' });
    const list = frame.getByRole('region', { name: 'Files changed this turn' });
    await list.locator('[data-path="README.md"]').waitFor({ state: 'visible' });
    await shot('changed-files', [frame.locator(CHAT.transcript).getByText('Added src/greet.test.ts'), list, frame.locator(CHAT.composer)]);

    await list.getByRole('button', { name: 'Undo all' }).click();
    await list.waitFor({ state: 'detached' });
  });
});

/** Expands or collapses a view's pane in the side bar by its header. */
async function setExpanded(workbench: Workbench, view: string, expanded: boolean): Promise<void> {
  const header = workbench.viewPane(view).locator('.pane-header');
  await header.waitFor({ state: 'visible' });
  if ((await header.getAttribute('aria-expanded')) !== String(expanded)) await header.click();
  await workbench.viewPane(view).locator(`.pane-header[aria-expanded="${expanded}"]`).waitFor();
}
