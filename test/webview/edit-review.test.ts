import assert from 'node:assert/strict';
import { useWebviewEnv } from './harness/suite';
import { overflowing } from './harness/layout';

describe('webview: edit review card and changed files (issue 19)', function () {
  const env = useWebviewEnv();

  it('issue 19 review: a write card names the file with +N −M and answers Accept / Reject; answered in the diff, the card goes', async () => {
    const chat = await env.open();
    await chat.init();
    const proposal = { path: 'src/app.ts', added: 3, removed: 1, created: false };
    await chat.host({ type: 'approval.request', id: 'w1', tool: 'edit_file', summary: 'edit src/app.ts', alwaysAsk: false, proposal });
    await chat.host({ type: 'approval.request', id: 'w2', tool: 'write_file', summary: 'write new.ts (2 lines)', alwaysAsk: false, proposal: { path: 'new.ts', added: 2, removed: 0, created: true } });
    const cards = chat.page.locator('[data-kind="approval"]');
    await cards.nth(1).waitFor();
    const first = cards.nth(0).locator('[data-kind="proposal"]');
    assert.match(await first.innerText(), /src\/app\.ts/);
    assert.equal(await first.locator('[data-kind="line-counts"]').innerText(), '+3−1');
    assert.match(await cards.nth(1).locator('[data-kind="proposal"]').innerText(), /new\.ts\s*\(new file\)/);
    await cards.nth(0).getByRole('button', { name: 'Accept', exact: true }).click();
    assert.deepEqual((await chat.waitForPosted('approval.reply'))[0], { type: 'approval.reply', id: 'w1', decision: 'allow' });
    await chat.host({ type: 'approval.settled', id: 'w2' });
    await cards.first().waitFor({ state: 'detached' });
    assert.equal(await cards.count(), 0);
  });

  it('issue 19 review: Reject on a write card posts deny', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.host({ type: 'approval.request', id: 'w3', tool: 'edit_file', summary: 'edit a.ts', alwaysAsk: true, proposal: { path: 'a.ts', added: 1, removed: 1, created: false } });
    await chat.page.locator('[data-kind="approval"]').getByRole('button', { name: 'Reject' }).click();
    assert.deepEqual((await chat.waitForPosted('approval.reply'))[0], { type: 'approval.reply', id: 'w3', decision: 'deny' });
  });

  it('issue 19 keep or undo: the changed-files list opens a diff, keeps or undoes one file or all', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.host({
      type: 'changes.list',
      files: [
        { path: 'src/a.ts', added: 2, removed: 1, created: false },
        { path: 'src/b.ts', added: 5, removed: 0, created: true },
      ],
    });
    const list = chat.page.getByRole('region', { name: 'Files changed this turn' });
    await list.waitFor();
    assert.match(await list.innerText(), /2 files changed/);
    assert.equal(await list.locator('[data-path="src/a.ts"] [data-kind="line-counts"]').innerText(), '+2−1');
    assert.match(await list.locator('[data-path="src/b.ts"]').innerText(), /\(new\)/);
    await list.getByRole('button', { name: 'src/a.ts', exact: true }).click();
    await list.getByRole('button', { name: 'Keep src/a.ts' }).click();
    await list.getByRole('button', { name: 'Undo src/b.ts' }).click();
    await list.getByRole('button', { name: 'Keep all' }).click();
    await list.getByRole('button', { name: 'Undo all' }).click();
    await chat.waitForPosted('changes.undo', 2);
    const sent = (await chat.posted()).filter((m) => m.type.startsWith('changes.'));
    assert.deepEqual(sent, [
      { type: 'changes.open', path: 'src/a.ts' },
      { type: 'changes.keep', path: 'src/a.ts' },
      { type: 'changes.undo', path: 'src/b.ts' },
      { type: 'changes.keep' },
      { type: 'changes.undo' },
    ]);
    await chat.host({ type: 'changes.list', files: [] });
    await list.waitFor({ state: 'detached' });
  });

  it('issue 30 hunks: a file expands to its hunks, lines escaped, each with Keep and Undo; the file-level buttons stay', async () => {
    const chat = await env.open();
    await chat.init();
    const hunks = [
      { key: 'h1-0', line: 2, removed: ['const a = 1;'], added: ['const a = 2; // \u202Eevil'], cut: 0 },
      { key: 'h2-0', line: 9, removed: [], added: ['one', 'two'], cut: 3 },
    ];
    await chat.host({ type: 'changes.list', files: [{ path: 'src/a.ts', added: 3, removed: 1, created: false, hunks }, { path: 'new.ts', added: 1, removed: 0, created: true }] });
    const list = chat.page.getByRole('region', { name: 'Files changed this turn' });
    const row = list.locator('[data-path="src/a.ts"]');
    await row.waitFor();
    // Collapsed at first; a created file has no hunks to show.
    assert.equal(await row.locator('.hunk').count(), 0);
    assert.equal(await list.locator('[data-path="new.ts"] .toggle-hunks').count(), 0);
    await list.getByRole('button', { name: 'Show the 2 hunks of src/a.ts' }).click();
    const shown = list.getByRole('list', { name: 'Hunks of src/a.ts' });
    await shown.waitFor();
    const first = shown.locator('[data-key="h1-0"]');
    assert.match(await first.innerText(), /Line 2[\s\S]*− const a = 1;[\s\S]*\+ const a = 2; \/\/ <U\+202E>evil/);
    assert.equal(await first.locator('[data-kind="hidden-char"]').count(), 1);
    assert.match(await shown.locator('[data-key="h2-0"]').innerText(), /\+ two[\s\S]*… 3 more lines in the diff/);
    await shown.getByRole('button', { name: 'Undo the hunk at line 9 of src/a.ts' }).click();
    await shown.getByRole('button', { name: 'Keep the hunk at line 2 of src/a.ts' }).click();
    await list.getByRole('button', { name: 'Undo src/a.ts' }).click();
    await chat.waitForPosted('changes.undo');
    const sent = (await chat.posted()).filter((m) => m.type.startsWith('changes.'));
    assert.deepEqual(sent, [
      { type: 'changes.undoHunk', path: 'src/a.ts', key: 'h2-0' },
      { type: 'changes.keepHunk', path: 'src/a.ts', key: 'h1-0' },
      { type: 'changes.undo', path: 'src/a.ts' },
    ]);
    // The host sends the list again with the hunk gone: the file stays open, showing what is left.
    await chat.host({ type: 'changes.list', files: [{ path: 'src/a.ts', added: 1, removed: 1, created: false, hunks: [hunks[0]] }] });
    await shown.locator('[data-key="h2-0"]').waitFor({ state: 'detached' });
    assert.equal(await shown.locator('.hunk').count(), 1);
    await list.getByRole('button', { name: 'Hide the 1 hunk of src/a.ts' }).click();
    await shown.waitFor({ state: 'detached' });
  });

  it('issue 30 hunks at a 200 px side bar: long lines and paths wrap inside the list, nothing sticks out sideways, and each hunk\'s Keep and Undo stay whole and inside the view', async () => {
    const chat = await env.open();
    await chat.page.setViewportSize({ width: 200, height: 900 });
    await chat.init();
    const long = 'const aVeryLongIdentifierName = ' + 'someFunction(argumentNumberOne, argumentNumberTwo) + '.repeat(6) + '0;';
    const path = 'packages/' + 'nested-folder-name/'.repeat(5) + 'index.ts';
    const hunks = [
      { key: 'h1-0', line: 2, removed: [long], added: [long.replace('One', '1')], cut: 0 },
      { key: 'h2-0', line: 40, removed: [], added: ['x'.repeat(300)], cut: 12 },
    ];
    await chat.host({ type: 'changes.list', files: [{ path, added: 2, removed: 1, created: false, hunks }] });
    const list = chat.page.getByRole('region', { name: 'Files changed this turn' });
    await list.getByRole('button', { name: `Show the 2 hunks of ${path}` }).click();
    const shown = list.getByRole('list', { name: `Hunks of ${path}` });
    await shown.waitFor();
    const { outside, sideways } = await overflowing(chat.page);
    assert.deepEqual(outside, [], 'elements outside the 200 px view');
    assert.deepEqual(sideways, [], 'boxes that scroll sideways');
    const width = await chat.page.evaluate(() => (globalThis as any).document.documentElement.clientWidth);
    for (const name of ['Keep the hunk at line 2', 'Undo the hunk at line 2', 'Keep the hunk at line 40', 'Undo the hunk at line 40']) {
      const box = await shown.getByRole('button', { name: `${name} of ${path}` }).boundingBox();
      assert.ok(box, `${name} has a box`);
      assert.ok(box.x >= 0 && box.x + box.width <= width, `${name} is inside the view: [${box.x}, ${box.x + box.width}] of ${width}`);
      assert.ok(box.width >= 24 && box.height >= 16, `${name} is not squeezed (${box.width}x${box.height})`);
    }
  });
});
