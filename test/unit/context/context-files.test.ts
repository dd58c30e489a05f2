import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { clipToCap, contextCaps } from '../../../extension/core/context/caps';
import { applyCaps, discoverContextFiles } from '../../../extension/core/context/context-files';
import { createHarness, type Harness } from '../../fixtures/agent-harness';

function tree(files: Record<string, string>): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sp-ctx-')));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

const isChild = (body: any) => /You have \d+ tool rounds for this task\./.test(body.messages[0].content);

describe('context files and caps', () => {
  it('derives caps from the context window within the clamps, growing with the window', () => {
    assert.deepEqual(contextCaps(8_000, null, null), { perFile: 8_000, block: 12_000 }, 'small window: the 8,000 floor');
    assert.deepEqual(contextCaps(32_000, null, null), { perFile: 12_800, block: 19_200 });
    assert.deepEqual(contextCaps(64_000, null, null), { perFile: 25_600, block: 38_400 }, 'above 32k the floor is 20,000');
    assert.deepEqual(contextCaps(128_000, null, null), { perFile: 51_200, block: 76_800 });
    assert.deepEqual(contextCaps(2_000_000, null, null), { perFile: 500_000, block: 120_000 }, 'very large window: the ceilings');
    assert.deepEqual(contextCaps(128_000, 1_000, 5_000), { perFile: 1_000, block: 5_000 }, 'settings win');
  });

  it('clips a file to head 70% and tail 20% around the marker', () => {
    const text = 'H'.repeat(5_000) + 'T'.repeat(5_000);
    const out = clipToCap(text, 1_000, 'src/client/AGENTS.md');
    const [head, marker, tail] = out.split('\n');
    assert.equal(head, 'H'.repeat(700));
    assert.equal(marker, '…[truncated: 9100 more chars; read src/client/AGENTS.md for the rest]');
    assert.equal(tail, 'T'.repeat(200));
    assert.equal(clipToCap('short', 1_000, 'x'), 'short');
  });

  it('discovers root and nested files (not in node_modules or .gitignore\'d folders), root first', () => {
    const root = tree({
      'AGENTS.md': 'root rules',
      '.cursorrules': 'cursor rules',
      'packages/api/AGENTS.md': 'api rules',
      'packages/api/src/deep/CLAUDE.md': 'deep rules',
      'packages/web/.snowpea/instructions.md': 'web rules',
      'node_modules/x/AGENTS.md': 'vendor',
      'build/AGENTS.md': 'generated',
      '.gitignore': 'build/\n',
    });
    const files = discoverContextFiles(root).map((f) => f.rel);
    assert.deepEqual(files, ['.cursorrules', 'AGENTS.md', 'packages/api/AGENTS.md', 'packages/web/.snowpea/instructions.md', 'packages/api/src/deep/CLAUDE.md']);
  });

  it('over the block cap, deeper files are cut first and the root stays whole', () => {
    const root = tree({
      'AGENTS.md': 'R'.repeat(3_000),
      'a/AGENTS.md': 'A'.repeat(3_000),
      'a/b/AGENTS.md': 'B'.repeat(3_000),
      'a/b/c/AGENTS.md': 'C'.repeat(3_000),
    });
    const shown = applyCaps(discoverContextFiles(root), { perFile: 20_000, block: 8_000 });
    const byRel = Object.fromEntries(shown.map((f) => [f.rel, f.shown]));
    assert.equal(byRel['AGENTS.md'], 'R'.repeat(3_000), 'root whole');
    assert.equal(byRel['a/AGENTS.md'], 'A'.repeat(3_000), 'shallow nested whole');
    assert.match(byRel['a/b/c/AGENTS.md'], /^…\[truncated: 3000 more chars; read a\/b\/c\/AGENTS\.md for the rest\]$/, 'deepest cut first, down to its marker');
    assert.match(byRel['a/b/AGENTS.md'], /…\[truncated: \d+ more chars; read a\/b\/AGENTS\.md for the rest\]/, 'then the next deepest');
    const total = shown.reduce((n, f) => n + f.shown.length + f.rel.length + 6, 0);
    assert.ok(total <= 8_000, `block within its cap (${total})`);
  });

  describe('in the agent', () => {
    let h: Harness;
    afterEach(async () => h && (await h.close()));

    it('puts the block in the parent prompt and honours agent.ignoreContextFiles', async () => {
      h = await createHarness({ files: { 'AGENTS.md': 'Use tabs.', 'pkg/AGENTS.md': 'pkg: run make.' } });
      h.server.enqueue({ text: 'ok' });
      await h.agent.runTurn(h.agent.newSession(), 'hi', new AbortController().signal);
      assert.match(h.bodies()[0].messages[0].content, /# Project Context\n\n## AGENTS\.md\nUse tabs\.\n\n## pkg\/AGENTS\.md\npkg: run make\./);
      await h.close();
      h = await createHarness({ files: { 'AGENTS.md': 'Use tabs.' }, settings: { 'agent.ignoreContextFiles': true } });
      h.server.enqueue({ text: 'ok' });
      await h.agent.runTurn(h.agent.newSession(), 'hi', new AbortController().signal);
      assert.doesNotMatch(h.bodies()[0].messages[0].content, /Project Context|Use tabs/);
    });

    it('a lean child gets the root file only; a nested file is attached the first time a tool touches its folder', async () => {
      h = await createHarness({ files: { 'AGENTS.md': 'Root rule.', 'pkg/AGENTS.md': 'Pkg rule.', 'pkg/a.ts': 'a\n', 'pkg/b.ts': 'b\n', 'other/c.ts': 'c\n' } });
      let childRound = 0;
      h.server.setResponder((body) => {
        if (isChild(body)) {
          childRound++;
          const calls = [
            { name: 'read_file', arguments: '{"path":"other/c.ts"}' },
            { name: 'read_file', arguments: '{"path":"pkg/a.ts"}' },
            { name: 'read_file', arguments: '{"path":"pkg/b.ts"}' },
          ];
          return childRound <= 3 ? { toolCalls: [calls[childRound - 1]] } : { text: 'done' };
        }
        return body.messages.some((m: any) => m.role === 'tool') ? { text: 'ok' } : { toolCalls: [{ name: 'delegate_task', arguments: '{"task":"look around","agent":"explore"}' }] };
      });
      await h.agent.runTurn(h.agent.newSession(), 'go', new AbortController().signal);
      const parent = h.bodies()[0].messages[0].content;
      assert.match(parent, /Pkg rule\./, 'the parent has every file up front');
      const child = h.bodies().filter(isChild);
      assert.match(child[0].messages[0].content, /Root rule\./);
      assert.doesNotMatch(child[0].messages[0].content, /Pkg rule/);
      const results = child.at(-1).messages.filter((m: any) => m.role === 'tool').map((m: any) => m.content);
      assert.doesNotMatch(results[0], /Pkg rule/, 'touching another folder attaches nothing');
      assert.match(results[1], /\[instructions from pkg\/AGENTS\.md, which governs pkg\/\]\nPkg rule\./);
      assert.doesNotMatch(results[2], /Pkg rule/, 'attached once per session');
    });

    it('a full child gets every file up front', async () => {
      h = await createHarness({ files: { 'AGENTS.md': 'Root rule.', 'pkg/AGENTS.md': 'Pkg rule.' }, settings: { 'agents.childContext': 'full' } });
      h.server.setResponder((body) => (isChild(body) ? { text: 'done' } : body.messages.some((m: any) => m.role === 'tool') ? { text: 'ok' } : { toolCalls: [{ name: 'delegate_task', arguments: '{"task":"t"}' }] }));
      await h.agent.runTurn(h.agent.newSession(), 'go', new AbortController().signal);
      assert.match(h.bodies().find(isChild).messages[0].content, /Pkg rule\./);
    });
  });
});
