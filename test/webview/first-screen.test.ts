import assert from 'node:assert/strict';
import type { TranscriptEntry } from '../../extension/protocol';
import type { ChatPage } from './harness/chat-page';
import { boxInViewport, clippedText, overflowing, textHidden, textLines } from './harness/layout';
import { useWebviewEnv } from './harness/suite';

/**
 * Issue 29, "First screen": at the side-bar sizes a new user meets (300 px wide and 353 px tall
 * when the Tools view is open at 1440x900; 200 and 560 px wide; 700 px tall), the composer is
 * always on screen, nothing scrolls sideways, and the text that matters (card titles, the model,
 * the cost) is the text that stays.
 */

const WIDTHS = [200, 300, 560];
const HEIGHTS = [353, 700];

const COST = { cached: 0.0001, uncached: 0.0002, output: 0.0001, round: 0.0004, session: 0.0012, sessionEverything: 0.003 };

const readSummary = '1 /** A greeting for `name`; strangers get a generic one. */ 2 export function greet(name: string): string {';
const refusal =
  'error (policy_blocked): write_file is not available: this workspace is not trusted (Restricted Mode), so only read tools run; ask the user to trust the folder';

/** A long turn as the host replays it: many cards with short titles and long summaries, a compaction on the way. */
function longTurn(): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [{ role: 'user', text: 'READ src/greet.ts then EDIT src/math.ts and grep for every export', turn: 1 }];
  for (let i = 0; i < 24; i++) {
    const kind = i % 3;
    entries.push({
      role: 'tool',
      callId: `c${i}`,
      tool: kind === 0 ? 'read_file' : kind === 1 ? 'edit_file' : 'grep',
      args: '{}',
      title: kind === 0 ? 'read src/greet.ts' : kind === 1 ? 'edit src/math.ts' : 'grep /export function/',
      summary: kind === 0 ? readSummary : kind === 1 ? 'edited src/math.ts: replaced 1 line(s) at line 3 with 1 line(s); the file now holds 7 lines' : 'src/greet.ts:2: export function greet(name: string): string {',
      result: 'ok',
      ok: true,
    });
    if (i === 11) entries.push({ role: 'compaction', trigger: 'manual', tokensBefore: 3_100, tokensAfter: 2_000, rounds: 4, summary: 'Task: stub summary of the chat.', focus: 'keep the math changes' });
    if (i % 4 === 3) entries.push({ role: 'assistant', text: 'Done. The tool said: edited `src/math.ts`: replaced 1 line(s) at line 3 with 1 line(s); the file now holds 7 lines.' });
  }
  return entries;
}

interface Scenario {
  name: string;
  /** Which button ends the composer's bar: Send, or Stop while the turn runs. */
  button: 'Send' | 'Stop';
  build(chat: ChatPage): Promise<void>;
}

const scenarios: Scenario[] = [
  {
    name: 'first run (setup card and Restricted Mode)',
    button: 'Send',
    async build(chat) {
      await chat.init({ setupNeeded: true, workspaceTrusted: false, model: 'gpt-4.1-mini' });
      await chat.page.locator('[data-kind="setup"]').waitFor();
      await chat.page.locator('[data-kind="restricted"]').waitFor();
    },
  },
  {
    name: 'Restricted Mode after a refused write',
    button: 'Send',
    async build(chat) {
      await chat.init({ setupNeeded: false, workspaceTrusted: false, model: 'gpt-4.1-mini' });
      await chat.events(
        { type: 'turn.start', turn: 1, prompt: 'WRITE restricted.txt hello' },
        { type: 'round.start', round: 1 },
        { type: 'text.delta', text: 'I will write the file.' },
        { type: 'tool.call', callId: 'w1', tool: 'write_file', args: '{"path":"restricted.txt","content":"hello"}', title: 'write restricted.txt', summary: '' },
        { type: 'tool.result', callId: 'w1', tool: 'write_file', ok: false, errorCode: 'policy_blocked', summary: refusal, result: refusal },
        { type: 'round.start', round: 2 },
        { type: 'text.delta', text: `Done. The tool said: \`${refusal}\`` },
        { type: 'usage', round: 2, usage: { promptTokens: 1800, completionTokens: 40, cachedTokens: 1200 } },
      );
      await chat.host({ type: 'meter', sessionId: chat.sessionId, round: 2, promptTokens: 1800, cachedTokens: 1200, contextWindow: 1_000_000, compactAtTokens: 800_000, deferredTools: 19, cost: COST });
      await chat.events({ type: 'turn.end', reason: 'done', rounds: 2 });
      await chat.toolCard('w1').waitFor();
      await chat.page.locator('[data-kind="restricted"]').waitFor();
    },
  },
  {
    name: 'a long turn with many cards and the changed files',
    button: 'Send',
    async build(chat) {
      await chat.init({ model: 'accounts/fireworks/models/llama-v3p1-70b-instruct' });
      await chat.host({ type: 'transcript', sessionId: chat.sessionId, entries: longTurn() });
      await chat.host({ type: 'meter', sessionId: chat.sessionId, round: 9, promptTokens: 2800, cachedTokens: 2200, contextWindow: 1_000_000, compactAtTokens: 800_000, deferredTools: 19, cost: COST });
      await chat.host({ type: 'changes.list', files: [{ path: 'src/math.ts', added: 1, removed: 1, created: false }, { path: 'src/very/deeply/nested/folder/with-a-long-name/greet.ts', added: 12, removed: 3, created: false }] });
      await chat.page.locator('.changed-files').waitFor();
      await chat.page.locator('.tool-card').first().waitFor();
    },
  },
  {
    name: 'a long turn waiting on a write approval',
    button: 'Stop',
    async build(chat) {
      await chat.init({ running: true, model: 'gpt-4.1-mini' });
      await chat.host({ type: 'transcript', sessionId: chat.sessionId, entries: longTurn() });
      await chat.host({ type: 'meter', sessionId: chat.sessionId, round: 9, promptTokens: 2800, cachedTokens: 2200, contextWindow: 1_000_000, compactAtTokens: 800_000, deferredTools: 19, cost: COST });
      await chat.host({
        type: 'approval.request',
        id: 'a1',
        tool: 'write_file',
        summary: 'write src/narrow.ts (1 line)',
        proposal: { path: 'src/narrow.ts', added: 1, removed: 0, created: true },
      });
      await chat.page.locator('[data-kind="approval"]').waitFor();
    },
  },
];

/** The composer's text box and its Send (or Stop) button lie wholly inside the view. */
async function assertComposerVisible(chat: ChatPage, button: 'Send' | 'Stop'): Promise<void> {
  for (const [what, selector] of [
    ['the composer', '[data-testid="composer"]'],
    [button, `.composer button[aria-label="${button}"]`],
  ] as const) {
    const box = await boxInViewport(chat.page, selector);
    assert.ok(box, `${what} is there`);
    const where = `[${Math.round(box.left)}, ${Math.round(box.right)}] x [${Math.round(box.top)}, ${Math.round(box.bottom)}] in ${box.viewWidth} x ${box.viewHeight}`;
    assert.ok(box.height > 0 && box.width > 0, `${what} has a box`);
    assert.ok(box.top >= -0.5 && box.bottom <= box.viewHeight + 0.5, `${what} is on screen vertically: ${where}`);
    assert.ok(box.left >= -0.5 && box.right <= box.viewWidth + 0.5, `${what} is on screen sideways: ${where}`);
  }
}

/** Nothing sticks out sideways: the page, the cards, the meter, the approval card, the notices. */
async function assertNoSidewaysOverflow(chat: ChatPage): Promise<void> {
  const { scrollWidth, clientWidth, outside, sideways } = await overflowing(chat.page);
  assert.deepEqual(outside, [], 'elements outside the view sideways');
  assert.deepEqual(sideways, [], 'boxes (other than code blocks) that scroll sideways');
  assert.ok(scrollWidth <= clientWidth, `the page does not scroll sideways: scrollWidth ${scrollWidth} > clientWidth ${clientWidth}`);
}

describe('webview: the first screen at side-bar sizes (issue 29)', function () {
  const env = useWebviewEnv();

  for (const scenario of scenarios) {
    for (const width of WIDTHS) {
      for (const height of HEIGHTS) {
        it(`${scenario.name} at ${width}x${height}: the composer is on screen, nothing overflows sideways`, async () => {
          const chat = await env.open();
          await chat.page.setViewportSize({ width, height });
          await scenario.build(chat);
          await assertComposerVisible(chat, scenario.button);
          await assertNoSidewaysOverflow(chat);
          // What is pinned above the conversation takes a small share of the height; the conversation keeps the rest.
          const transcript = await boxInViewport(chat.page, '.transcript');
          assert.ok(transcript, 'the transcript is there');
          assert.ok(transcript.top <= height * 0.5, `the header and notices take at most half the height (the transcript starts at ${Math.round(transcript.top)} of ${height})`);
          assert.ok(transcript.height >= 48, `the conversation keeps room to read (${Math.round(transcript.height)} px)`);
          assert.deepEqual(chat.pageErrors, []);
        });
      }
    }
  }

  it('at 300 px, card titles show their whole text while the summaries give way', async () => {
    const chat = await env.open();
    await chat.page.setViewportSize({ width: 300, height: 700 });
    await scenarios[2]!.build(chat);
    assert.ok((await chat.page.locator('.tool-card .tool-title').count()) >= 3, 'cards are on screen');
    assert.deepEqual(await clippedText(chat.page, '.tool-card .tool-title'), [], 'titles cut short');
    // The refused write of Restricted Mode too: its title beside the error code.
    const restricted = await env.open();
    await restricted.page.setViewportSize({ width: 300, height: 700 });
    await scenarios[1]!.build(restricted);
    assert.deepEqual(await clippedText(restricted.page, '.tool-card .tool-title'), [], 'the refused write keeps its title');
  });

  it("at 300 px the meter's cost is visible, and the model's name reads whole (a long org/model keeps its tail)", async () => {
    const chat = await env.open();
    await chat.page.setViewportSize({ width: 300, height: 353 });
    await scenarios[1]!.build(chat);
    assert.equal(await textHidden(chat.page, '[data-kind="meter"]', '$0.0004'), '', 'the round cost is visible');
    assert.equal(await textHidden(chat.page, '.composer .model', 'gpt-4.1-mini'), '', 'the model name is visible');

    const long = await env.open();
    await long.page.setViewportSize({ width: 300, height: 353 });
    await scenarios[2]!.build(long);
    assert.equal(await textHidden(long.page, '.composer .model', 'llama-v3p1-70b-instruct'), '', "the model's own name, after its org path, is visible");
    assert.equal(await long.page.locator('.composer .model').getAttribute('title'), 'accounts/fireworks/models/llama-v3p1-70b-instruct', 'the full name is in its title');
  });

  it('the cost split of the latest round opens from the meter with the keyboard, no hover needed', async () => {
    const chat = await env.open();
    await chat.page.setViewportSize({ width: 300, height: 700 });
    await scenarios[1]!.build(chat);
    await chat.page.locator('[data-kind="meter"]').focus();
    await chat.page.keyboard.press('Enter');
    const panel = chat.page.locator('[data-kind="meter-rounds"]');
    await panel.waitFor();
    const text = await panel.innerText();
    assert.match(text, /cached input \$0\.0001, uncached input \$0\.0002, output \$0\.0001/);
    assert.match(text, /would have cost \$0\.0030 \(saved \$0\.0018\)/);
    assert.equal(await textHidden(chat.page, '[data-kind="meter-rounds"]', 'uncached input $0.0002'), '', 'the split is on screen, not only in a tooltip');
    await chat.page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
  });

  it('at 300 px "Keep all" and "Undo all" stay on one line each', async () => {
    const chat = await env.open();
    await chat.page.setViewportSize({ width: 300, height: 700 });
    await scenarios[2]!.build(chat);
    assert.deepEqual(await textLines(chat.page, '.changed-files-head button, .changed-file button:not(.open-diff)'), [1, 1, 1, 1, 1, 1], 'lines of each button (Keep all, Undo all, then Keep and Undo per file)');
  });

  it('at 200 px the compaction divider reads in at most two lines, its label whole', async () => {
    const chat = await env.open();
    await chat.page.setViewportSize({ width: 200, height: 700 });
    await chat.init();
    await chat.host({ type: 'transcript', sessionId: chat.sessionId, entries: [{ role: 'user', text: 'go', turn: 1 }, { role: 'compaction', trigger: 'manual', tokensBefore: 3_100, tokensAfter: 2_000, rounds: 4, summary: 'Task: a summary.' }] });
    await chat.page.locator('[data-kind="compaction"]').waitFor();
    const [lines] = await textLines(chat.page, '.compaction-label');
    assert.ok(lines !== undefined && lines <= 2, `the label takes ${lines} lines`);
    assert.deepEqual(await clippedText(chat.page, '.compaction-label'), []);
  });

  it('at 200 px the approval card wraps its line counts, hint and buttons inside the view', async () => {
    const chat = await env.open();
    await chat.page.setViewportSize({ width: 200, height: 700 });
    await scenarios[3]!.build(chat);
    await assertNoSidewaysOverflow(chat);
    // "+1 −0": React renders each sign and count as its own text node.
    assert.equal(await textHidden(chat.page, '[data-kind="proposal"] .added', '1'), '');
    assert.equal(await textHidden(chat.page, '[data-kind="proposal"] .removed', '0'), '');
    assert.equal(await textHidden(chat.page, '[data-kind="proposal"]', 'diff editor'), '');
    for (const name of ['Accept', 'Always allow this tool', 'Reject']) {
      const box = await chat.page.locator('[data-kind="approval"]').getByRole('button', { name }).boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 200, `${name} is inside the view`);
    }
  });

  it('at 200 px snowpea.model.baseUrl breaks only between its parts', async () => {
    const chat = await env.open();
    await chat.page.setViewportSize({ width: 200, height: 700 });
    await chat.init({ setupNeeded: true, workspaceTrusted: false });
    const setup = chat.page.locator('[data-kind="setup"]');
    await setup.waitFor();
    // Wherever the setting is named on the card (opened in full), each of its words stays on one line.
    const more = setup.getByRole('button', { name: /more|details/i });
    if (await more.count()) await more.first().click();
    const words = await chat.page.evaluate(`(() => {
      const out = [];
      for (const code of document.querySelectorAll('[data-kind="setup"] code')) {
        const text = code.textContent;
        const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
        let node;
        while ((node = walker.nextNode())) {
          for (const m of node.data.matchAll(/[A-Za-z]+/g)) {
            const range = document.createRange();
            range.setStart(node, m.index);
            range.setEnd(node, m.index + m[0].length);
            const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
            out.push([text, m[0], tops.size]);
          }
        }
      }
      return out;
    })()`) as Array<[string, string, number]>;
    assert.ok(words.some(([code]) => code === 'snowpea.model.baseUrl'), `the card names snowpea.model.baseUrl: ${JSON.stringify(words)}`);
    for (const [code, word, lines] of words) assert.equal(lines, 1, `"${word}" of ${code} is split over ${lines} lines`);
  });
});
