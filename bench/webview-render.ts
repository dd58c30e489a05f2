/**
 * How fast the chat webview opens and scrolls a long session: the built bundle in Chromium
 * with the fake host (the webview test harness), a replayed transcript of N messages.
 * Reports, never asserts. Run alone: `npx tsx bench/webview-render.ts [messages] [runs]`
 * (build the webview first: `npm run build`).
 */
import { launchChromium } from '../test/webview/harness/browser';
import { ChatPage } from '../test/webview/harness/chat-page';
import { longTranscript } from '../test/webview/harness/long-session';
import { startWebviewServer } from '../test/webview/harness/server';
import { assertBundleBuilt } from '../test/webview/harness/suite';

export interface WebviewRenderFigures {
  messages: number;
  runs: number;
  /** From posting init + transcript to the last message painted, per run (ms). */
  openMs: number[];
  openMedian: number;
  /** Frame times while scrolling the whole session top to bottom in viewport steps (ms). */
  scrollFrames: { count: number; median: number; p95: number; max: number };
  /** Transcript rows in the DOM after opening (the virtual window). */
  rowsInDom: number;
}

// Runs in the page. A string: the test transpiler's helpers must not leak into it.
const measureOpen = `async (msgs) => {
  const t0 = performance.now();
  for (const m of msgs) window.postMessage(m, '*');
  const last = 'Message ' + msgs[1].entries.length + ':';
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  for (;;) {
    await frame();
    const rows = document.querySelectorAll('.transcript-row');
    if ([...rows].some((r) => r.textContent.includes(last))) break;
  }
  await frame();
  return { ms: performance.now() - t0, rows: document.querySelectorAll('.transcript-row').length };
}`;

const measureScroll = `async () => {
  const el = document.querySelector('.transcript');
  const frame = () => new Promise((r) => requestAnimationFrame((t) => r(t)));
  el.scrollTop = 0;
  await frame();
  await frame();
  const times = [];
  let previous = await frame();
  while (el.scrollTop + el.clientHeight < el.scrollHeight - 1) {
    el.scrollTop += el.clientHeight * 0.9;
    const now = await frame();
    times.push(now - previous);
    previous = now;
  }
  return times;
}`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? 0;
const round1 = (x: number) => Math.round(x * 10) / 10;

export async function benchWebviewRender(options: { messages?: number; runs?: number } = {}): Promise<WebviewRenderFigures> {
  const messages = options.messages ?? 2000;
  const runs = options.runs ?? 3;
  assertBundleBuilt();
  const server = await startWebviewServer();
  const browser = await launchChromium().catch(async (e) => {
    await server.close();
    throw e;
  });
  const entries = longTranscript(messages);
  const openMs: number[] = [];
  let frames: number[] = [];
  let rowsInDom = 0;
  try {
    for (let run = 0; run < runs; run++) {
      const chat = await ChatPage.open(browser, server);
      await chat.page.setViewportSize({ width: 420, height: 800 });
      const init = { type: 'init', sessionId: 's1', title: 'Long session', model: 'm', loadedTools: [], workspaceTrusted: true, setupNeeded: false };
      const transcript = { type: 'transcript', sessionId: 's1', entries };
      const opened = (await chat.page.evaluate(`(${measureOpen})(${JSON.stringify([init, transcript])})`)) as { ms: number; rows: number };
      openMs.push(round1(opened.ms));
      rowsInDom = opened.rows;
      if (run === runs - 1) frames = (await chat.page.evaluate(`(${measureScroll})()`)) as number[];
      await chat.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return {
    messages,
    runs,
    openMs,
    openMedian: median(openMs),
    scrollFrames: { count: frames.length, median: round1(median(frames)), p95: round1(percentile(frames, 0.95)), max: round1(Math.max(0, ...frames)) },
    rowsInDom,
  };
}

/** The figures as printed by `npm run bench` and by this script. There is no baseline run: scroll frames compare with a 60 Hz frame (16.7 ms). */
export function formatWebviewRender(f: WebviewRenderFigures): string {
  return [
    `webview: ${f.messages}-message session opens in ${f.openMedian} ms (median of ${f.runs}: ${f.openMs.join(', ')} ms), ${f.rowsInDom} rows in the DOM`,
    `         scrolling it top to bottom: ${f.scrollFrames.count} frames, median ${f.scrollFrames.median} ms, p95 ${f.scrollFrames.p95} ms, max ${f.scrollFrames.max} ms (a 60 Hz frame is 16.7 ms; no baseline is run)`,
  ].join('\n');
}

if (require.main === module) {
  const [messages, runs] = process.argv.slice(2).map(Number);
  benchWebviewRender({ ...(messages ? { messages } : {}), ...(runs ? { runs } : {}) }).then(
    (f) => {
      console.log(formatWebviewRender(f));
      console.log(JSON.stringify(f));
    },
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
