/**
 * Red-team 2026-12-04 N2 (X17): bidi isolates reordered the approval card, so `touch` read as if
 * commented out. The card now shows each such character as a marked `<U+2067>` chip and warns.
 */
import assert from 'node:assert/strict';
import { useWebviewEnv } from './harness/suite';

const [RLI, LRI, PDI] = ['\u2067', '\u2066', '\u2069'];
const command = `npm run build; : ${RLI}${LRI}; touch /tmp/pwned-bidi; : ${PDI}${LRI} # ${PDI}${PDI}`;

describe('webview: red team 2026-12-04, bidi and invisible characters on the approval card (N2)', function () {
  const env = useWebviewEnv();

  it('N2 (X17): the card shows the isolates as marked chips in their place, so touch reads as run, and warns', async () => {
    const chat = await env.open();
    await chat.init({ running: true });
    await chat.host({ type: 'approval.request', id: 'a1', tool: 'shell', summary: `run: ${command}`, detail: JSON.stringify({ command }, null, 2) });
    const card = chat.page.locator('[data-kind="approval"]');
    const summary = await card.locator('.request-summary').first().innerText();
    assert.ok(!/[\u2066-\u2069]/.test(summary), 'a bidi isolate reached the card as a character');
    assert.equal(summary, 'run: npm run build; : <U+2067><U+2066>; touch /tmp/pwned-bidi; : <U+2069><U+2066> # <U+2069><U+2069>');
    const detail = await card.locator('[data-kind="approval-detail"]').innerText();
    assert.ok(!/[\u2066-\u2069]/.test(detail));
    assert.match(detail, /"command": "npm run build; : <U\+2067><U\+2066>; touch \/tmp\/pwned-bidi; : <U\+2069><U\+2066> # <U\+2069><U\+2069>"/);
    const chip = card.locator('[data-kind="hidden-char"]').first();
    assert.equal(await chip.getAttribute('title'), 'U+2067 RIGHT-TO-LEFT ISOLATE (changes the direction of the text around it)');
    assert.match(await card.locator('[data-kind="approval-hidden"]').innerText(), /This call holds 12 invisible or direction-changing characters/);
  });

  it('N2: zero-width and other invisible characters in a path or reason are marked; plain text and line breaks stay as they are', async () => {
    const chat = await env.open();
    await chat.init({ running: true });
    await chat.host({ type: 'approval.request', id: 'a1', tool: 'write_file', summary: 'write src/a\u200b.ts', reason: '.env\ufeff is a protected path', alwaysAsk: true });
    await chat.host({ type: 'approval.request', id: 'a2', tool: 'shell', summary: 'npm install\n&& npm test' });
    const cards = chat.page.locator('[data-kind="approval"]');
    assert.equal(await cards.nth(0).locator('.request-summary').innerText(), 'write src/a<U+200B>.ts');
    assert.match(await cards.nth(0).locator('[data-kind="approval-reason"]').innerText(), /\.env<U\+FEFF> is a protected path/);
    assert.equal(await cards.nth(1).locator('.request-summary').innerText(), 'npm install\n&& npm test');
    assert.equal(await cards.nth(1).locator('[data-kind="approval-hidden"]').count(), 0, 'no warning without hidden characters');
  });
});
