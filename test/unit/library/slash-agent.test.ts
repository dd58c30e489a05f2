/**
 * Issue 30 item 4 in the agent: `/name args` sends the prompt file's text after what the user
 * typed; the chat, the stored transcript and the title keep only what they typed.
 */
import assert from 'node:assert/strict';
import { typedText } from '../../../extension/core/input/compose';
import { createHarness, type Harness } from '../../fixtures/agent-harness';
import { libraryWorld } from './world';

describe('library: a slash command in a turn (issue 30 item 4)', () => {
  libraryWorld();
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('the request carries the typed line, then the command; turn.start, the transcript and the title carry the typed line only', async () => {
    h = await createHarness({ files: { '.claude/commands/review.md': '---\ndescription: Review\n---\nReview $1 (COMMAND-BODY).\n', 'src/a.ts': 'export const a = 1;\n' } });
    h.server.enqueue({ text: 'ok' });
    const s = h.agent.newSession();
    await h.agent.send(s, { text: '/review @src/a.ts' }, new AbortController().signal);
    const sent = h.bodies()[0].messages.at(-1).content as string;
    assert.ok(sent.startsWith('/review @src/a.ts'), sent);
    assert.ok(sent.includes('export const a = 1;'), 'the typed @path is inlined as usual');
    assert.ok(sent.endsWith('[/review: .claude/commands/review.md]\nReview @src/a.ts (COMMAND-BODY).'), sent);
    const start = h.events.find((e) => e.type === 'turn.start');
    assert.equal(start?.type === 'turn.start' && start.prompt, '/review @src/a.ts', 'the chat shows what was typed');
    const stored = h.store.getMessages(s.id).find((m) => m.role === 'user')!;
    assert.equal(typedText(stored.content as never), '/review @src/a.ts');
    assert.equal(s.title, '/review @src/a.ts');
  });
});
