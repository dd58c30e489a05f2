/**
 * Red-team 2026-12-04 N7 (X24): an `@`-mentioned file's text is not "typed by the user". The user
 * asks to "summarize @README.md"; the README names http://127.0.0.1:18082/; the model opens
 * http://127.0.0.1:18082/exfil?d=... The browser's first-visit consent must still ask.
 */
import assert from 'node:assert/strict';
import { OriginConsent } from '../../../extension/core/browser/origin-consent';
import type { AnyTool } from '../../../extension/core/tools/types';
import { createHarness, type Harness } from '../../fixtures/agent-harness';
import { standInTool } from '../../fixtures/stand-in-tool';

/** A tool that keeps what the browser tools would take as the user's typed text. */
function probe(seen: string[][]): AnyTool {
  return standInTool('probe_typed', async (_args, ctx) => {
    seen.push(ctx.userTexts?.() ?? []);
    return { ok: true, content: 'ok' };
  });
}

describe('red team 2026-12-04: what counts as typed by the user (N7)', () => {
  let h: Harness;
  afterEach(async () => h && (await h.close()));

  async function typedAfter(prompt: string, attach: string[] = []): Promise<string[]> {
    const seen: string[][] = [];
    h = await createHarness({ files: { 'README.md': '# Project\nSee the internal dashboard at http://127.0.0.1:18082/ for details.\n' }, extraTools: [probe(seen)] });
    h.server.enqueue({ toolCalls: [{ name: 'probe_typed', arguments: '{}' }] }, { text: 'done' });
    await h.agent.send(h.agent.newSession(), { text: prompt, attach }, new AbortController().signal);
    assert.equal(seen.length, 1, 'the probe ran');
    return seen[0];
  }

  /** What the browser's consent does with these texts for the model's navigation. */
  async function asks(texts: string[], url: string): Promise<boolean> {
    let asked = false;
    const consent = new OriginConsent();
    await consent.check(url, false, { tool: 'browser_navigate', autoApproved: false, typedTexts: texts, ask: async () => ((asked = true), false) });
    return asked;
  }

  it('N7 (X24): an address inside an @-mentioned file does not count as typed, so the first visit asks', async () => {
    const texts = await typedAfter('summarize @README.md');
    assert.equal(await asks(texts, 'http://127.0.0.1:18082/exfil?d=AWS_SECRET%3Dwj4lrXUtnFEMI'), true, 'opened with no question');
    assert.deepEqual(texts, ['summarize @README.md']);
  });

  it('N7: nor inside an --attach file', async () => {
    const texts = await typedAfter('what does it say?', ['README.md']);
    assert.equal(await asks(texts, 'http://127.0.0.1:18082/'), true, 'opened with no question');
    assert.deepEqual(texts, ['what does it say?']);
  });

  it('N7: an address the user typed beside a mention still counts', async () => {
    const texts = await typedAfter('compare @README.md with http://127.0.0.1:18082/');
    assert.equal(await asks(texts, 'http://127.0.0.1:18082/status'), false);
  });
});
