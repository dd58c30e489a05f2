import assert from 'node:assert/strict';
import { longTranscript } from './harness/long-session';
import { useWebviewEnv } from './harness/suite';

const COUNT = 2000;

/** In the page: how many transcript rows are in the DOM, and which items they show. */
function renderedRows() {
  const rows = [...(globalThis as any).document.querySelectorAll('.transcript-row')];
  return { count: rows.length, indices: rows.map((r: any) => Number(r.dataset.index)) };
}

describe('webview: a 2,000-message session', function () {
  const env = useWebviewEnv();

  it('opens at the latest message with only a window of rows in the DOM, and scrolls to the first', async () => {
    const chat = await env.open();
    await chat.page.setViewportSize({ width: 400, height: 700 });
    await chat.init({ title: 'Long session' });
    await chat.host({ type: 'transcript', sessionId: 's1', entries: longTranscript(COUNT) });

    await chat.page.getByText(`Message ${COUNT}:`, { exact: false }).waitFor();
    const atEnd = await chat.page.evaluate(renderedRows);
    assert.ok(atEnd.count > 5 && atEnd.count < 80, `a window of rows, not ${COUNT}: ${atEnd.count}`);
    assert.ok(atEnd.indices.includes(COUNT - 1));
    assert.equal(await chat.page.locator('.tool-card').count() < 40, true);
    const scroller = chat.page.locator('.transcript');
    await chat.page.waitForFunction(() => {
      const el = (globalThis as any).document.querySelector('.transcript');
      return el.scrollHeight - el.scrollTop - el.clientHeight < 2;
    });
    assert.ok((await scroller.evaluate((el) => el.scrollHeight)) > COUNT * 20, 'the list is as tall as the whole session');

    // Jump to the top (Home in a real scroller does the same) and the first messages render.
    await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
    await chat.page.getByText('Message 1: please look at module 1', { exact: false }).waitFor();
    const atTop = await chat.page.evaluate(renderedRows);
    assert.ok(atTop.indices.includes(0));
    assert.ok(atTop.count < 80, `still a window: ${atTop.count}`);

    // Wheel through the middle: rows come and go, nothing breaks.
    await scroller.hover();
    for (let i = 0; i < 10; i++) await chat.page.mouse.wheel(0, 2000);
    const middle = await chat.page.evaluate(renderedRows);
    assert.ok(Math.min(...middle.indices) > 0 && middle.count < 80, JSON.stringify(middle));
    assert.deepEqual(chat.pageErrors, []);
  });

  it('follows a new answer streaming at the end of a long session', async () => {
    const chat = await env.open();
    await chat.page.setViewportSize({ width: 400, height: 600 });
    await chat.init({ running: true });
    await chat.host({ type: 'transcript', sessionId: 's1', entries: longTranscript(COUNT) });
    await chat.page.getByText(`Message ${COUNT}:`, { exact: false }).waitFor();
    for (let i = 1; i <= 30; i++) await chat.events({ type: 'text.delta', text: `Streamed paragraph ${i}.\n\n` });
    await chat.page.getByText('Streamed paragraph 30.').waitFor();
    await chat.page.waitForFunction(() => {
      const el = (globalThis as any).document.querySelector('.transcript');
      return el.scrollHeight - el.scrollTop - el.clientHeight < 2;
    });
    assert.ok((await chat.page.evaluate(renderedRows)).count < 80);
  });
});
