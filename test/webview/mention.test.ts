import assert from 'node:assert/strict';
import { useWebviewEnv } from './harness/suite';

const paths = ['src/apps/tsconfig.json', 'test/app.test.ts', 'src/app.ts', 'docs/my notes.md', 'README.md'];

describe('webview: @ offers workspace files', function () {
  const env = useWebviewEnv();

  it('asks the host as the query changes, ranks fuzzily, and inserts @path with the keyboard', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.composer.click();
    await chat.page.keyboard.type('look at @');
    assert.deepEqual((await chat.waitForPosted('files.query'))[0], { type: 'files.query', query: '' });
    await chat.host({ type: 'files.result', query: '', paths });
    const options = chat.page.getByRole('listbox', { name: 'Workspace files' }).getByRole('option');
    await options.first().waitFor();
    const files = chat.page.locator('[data-kind="mentions"] .mention-path');
    assert.deepEqual(await files.allInnerTexts(), paths, 'an empty query keeps the host order');
    assert.deepEqual(await chat.page.locator('[data-kind="mention-keyword"] .mention-keyword').allInnerTexts(), ['problems', 'terminal', 'changes'], 'the keywords come first');

    await chat.page.keyboard.type('appts');
    const queries = (await chat.waitForPosted('files.query', 6)).map((m) => m.query);
    assert.deepEqual(queries, ['', 'a', 'ap', 'app', 'appt', 'appts']);
    // Before the host answers, its last answer is filtered and ranked as the user types.
    assert.deepEqual(await options.allInnerTexts(), ['src/app.ts', 'test/app.test.ts', 'src/apps/tsconfig.json']);
    await chat.host({ type: 'files.result', query: 'appts', paths: ['test/app.test.ts', 'src/app.ts', 'lib/happy-paths.ts'] });
    await chat.page.getByRole('option', { name: 'lib/happy-paths.ts' }).waitFor();
    assert.deepEqual(await options.allInnerTexts(), ['src/app.ts', 'test/app.test.ts', 'lib/happy-paths.ts']);
    assert.equal(await options.first().locator('b').allInnerTexts().then((b) => b.join('')), 'appts', 'matched characters are marked');

    assert.equal(await options.nth(0).getAttribute('aria-selected'), 'true');
    await chat.page.keyboard.press('ArrowDown');
    await chat.page.keyboard.press('ArrowDown');
    await chat.page.keyboard.press('ArrowUp');
    assert.equal(await options.nth(1).getAttribute('aria-selected'), 'true');
    assert.equal(await chat.composer.getAttribute('aria-activedescendant'), await options.nth(1).getAttribute('id'));
    await chat.page.keyboard.press('Enter');
    await chat.page.getByRole('listbox').waitFor({ state: 'detached' });
    assert.equal(await chat.composer.inputValue(), 'look at @test/app.test.ts ');
    await chat.page.keyboard.type('please');
    assert.equal(await chat.composer.inputValue(), 'look at @test/app.test.ts please');
    assert.equal((await chat.posted()).filter((m) => m.type === 'send').length, 0, 'Enter chose a file, it did not send');
  });

  it('quotes a path with spaces, picks with the mouse, closes on Escape, and ignores e-mail addresses', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.composer.click();
    await chat.page.keyboard.type('mail me@example.com about ');
    assert.equal((await chat.posted()).filter((m) => m.type === 'files.query').length, 0);

    await chat.page.keyboard.type('@notes');
    await chat.waitForPosted('files.query', 6);
    await chat.host({ type: 'files.result', query: 'notes', paths });
    await chat.page.getByRole('option', { name: 'docs/my notes.md' }).click();
    assert.equal(await chat.composer.inputValue(), 'mail me@example.com about @"docs/my notes.md" ');

    await chat.page.keyboard.type('and @READ');
    await chat.host({ type: 'files.result', query: 'READ', paths });
    await chat.page.getByRole('option', { name: 'README.md' }).waitFor();
    await chat.page.keyboard.press('Escape');
    await chat.page.getByRole('listbox').waitFor({ state: 'detached' });
    await chat.page.keyboard.press('Enter');
    const [send] = await chat.waitForPosted('send');
    assert.equal(send?.text, 'mail me@example.com about @"docs/my notes.md" and @READ', 'after Escape, Enter sends');
  });

  it('says when no file matches', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.composer.click();
    await chat.page.keyboard.type('@zzz');
    await chat.host({ type: 'files.result', query: 'zzz', paths: [] });
    await chat.page.locator('[data-kind="mentions"]', { hasText: 'No matching files' }).waitFor();
    await chat.page.keyboard.press('Tab');
    assert.equal(await chat.composer.inputValue(), '@zzz');
  });

  it('offers @problems, @terminal and @changes above the files: typed, matched and inserted like a path', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.composer.click();
    await chat.page.keyboard.type('fix @pro');
    const keyword = chat.page.locator('[data-kind="mention-keyword"]');
    await keyword.first().waitFor();
    // Before the host answers with files, the matching keyword is there already.
    assert.deepEqual(await keyword.locator('.mention-keyword').allInnerTexts(), ['problems']);
    assert.match(await keyword.first().innerText(), /errors and warnings in the workspace/);
    await chat.host({ type: 'files.result', query: 'pro', paths: ['src/profile.ts'] });
    await chat.page.getByRole('option', { name: /src\/profile\.ts/ }).waitFor();
    assert.equal(await keyword.first().getAttribute('aria-selected'), 'true', 'the keyword comes first and is active');
    await chat.page.keyboard.press('Tab');
    assert.equal(await chat.composer.inputValue(), 'fix @problems ');

    await chat.page.keyboard.type('and @');
    await keyword.nth(2).waitFor();
    await keyword.filter({ hasText: 'changes' }).click();
    assert.equal(await chat.composer.inputValue(), 'fix @problems and @changes ');
    await chat.page.keyboard.press('Enter');
    const [send] = await chat.waitForPosted('send');
    assert.equal(send?.text, 'fix @problems and @changes', 'sent as typed: the host attaches what they name');
  });
});
