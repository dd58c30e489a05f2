import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const SHOTS = 'media/screenshots';
const SPEC = 'test/e2e/screenshots.shots.ts';

/** The screenshots a Markdown text shows (`![alt](media/screenshots/x.png)` or `<img src="media/screenshots/x.png">`), as written. */
function screenshotLinks(markdown: string): string[] {
  const links = [...markdown.matchAll(/!\[[^\]]*\]\(\s*<?([^)\s>]+)|<img\b[^>]*\bsrc=["']([^"']+)["']/gi)].map((m) => (m[1] ?? m[2]) as string);
  return links.filter((l) => l.includes(`${SHOTS}/`));
}

/** What is wrong with the README's screenshot links: absolute links, files missing, shots the e2e spec does not take. */
function problems(markdown: string, shotsDir: string, spec: string): string[] {
  return screenshotLinks(markdown).flatMap((link) => {
    if (!/^(\.\/)?media\/screenshots\/[\w.-]+\.png$/.test(link)) return [`${link}: not a relative link to a PNG in ${SHOTS}/ (GitHub resolves README links from the repository root)`];
    const name = path.basename(link);
    const out: string[] = [];
    if (!fs.existsSync(path.join(shotsDir, name))) out.push(`${link}: missing from ${SHOTS}/ (npm run screenshots takes it)`);
    // A shot is taken by shot('name', ...) or shoot(page, 'name', ...).
    const base = name.replace(/\.png$/, '');
    if (!spec.includes(`shot('${base}'`) && !spec.includes(`shoot(page, '${base}'`)) out.push(`${link}: ${SPEC} takes no shot named ${base}, so npm run screenshots would not refresh it`);
    return out;
  });
}

describe('issue 18: the README screenshots exist and are refreshed by npm run screenshots', () => {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const spec = fs.readFileSync(path.join(root, SPEC), 'utf8');
  const shotsDir = path.join(root, SHOTS);

  it('every screenshot README.md shows is in media/screenshots, by a relative link, and taken by the e2e spec', () => {
    assert.deepEqual(problems(readme, shotsDir, spec), []);
  });

  it('the check names a missing shot, an absolute link and a shot the spec does not take', () => {
    const sample = [
      '![The chat](media/screenshots/chat-tool-card.png)',
      '<img alt="gone" src="./media/screenshots/not-there.png">',
      '![abs](/media/screenshots/setup-card.png)',
      '![cost](bench/cost.svg)',
    ].join('\n');
    const found = problems(sample, shotsDir, "await shot('chat-tool-card', [card]);");
    assert.equal(found.length, 3, found.join('\n'));
    assert.match(found[0]!, /^\.\/media\/screenshots\/not-there\.png: missing from media\/screenshots\//);
    assert.match(found[1]!, /not-there\.png: test\/e2e\/screenshots\.shots\.ts takes no shot named not-there/);
    assert.match(found[2]!, /^\/media\/screenshots\/setup-card\.png: not a relative link/);
  });

  it('each screenshot in media/screenshots is a PNG under 150 KB', () => {
    const files = fs.existsSync(shotsDir) ? fs.readdirSync(shotsDir) : [];
    for (const f of files) {
      const bytes = fs.readFileSync(path.join(shotsDir, f));
      assert.ok(f.endsWith('.png') && bytes.subarray(1, 4).toString('latin1') === 'PNG', `${f} is not a PNG`);
      assert.ok(bytes.length < 150 * 1024, `${f} is ${Math.round(bytes.length / 1024)} KB (at most 150 KB)`);
    }
  });
});
