import assert from 'node:assert/strict';
import type { Session } from '../../../extension/core/conversation/session';
import { toTranscript } from '../../../extension/host/chat/transcript';
import type { TranscriptEntry } from '../../../extension/protocol';
import { createHarness, type Harness } from '../../fixtures/agent-harness';
import { reopenStored } from './replay-world';

/** The user rows of a replay as `turn: text`. */
const userRows = (entries: TranscriptEntry[]) => entries.flatMap((e) => (e.role === 'user' ? [`${e.turn}: ${e.text}`] : []));

describe('host: turn numbers and rewinds in the replayed transcript (issue 19 checkpoints)', () => {
  let h: Harness;
  const stored = reopenStored(() => h);

  async function turns(s: Session, ...prompts: string[]): Promise<void> {
    for (const p of prompts) {
      h.server.enqueue({ text: `answer to ${p}` });
      await h.agent.runTurn(s, p, new AbortController().signal);
    }
  }

  it('issue 30: a message sent during a turn replays where it was read, marked, without a turn number; the turns after it keep theirs', async () => {
    h = await createHarness({ files: { 'a.txt': 'alpha\n' } });
    const s = h.agent.newSession();
    h.server.enqueue({ toolCalls: [{ id: 'call_a', name: 'read_file', arguments: '{"path":"a.txt"}' }] }, { text: 'read it' });
    let given = false;
    const duringTurn = () => (given ? [] : ((given = true), [{ id: 'q1', input: { text: 'and b.txt too' } }]));
    await h.agent.send(s, { text: 'first' }, new AbortController().signal, { duringTurn });
    await turns(s, 'second');
    const replay = toTranscript(stored(s).messages);
    assert.deepEqual(
      replay.flatMap((e) => (e.role === 'user' ? [[e.text, e.turn, e.duringTurn]] : [])),
      [
        ['first', 1, undefined],
        ['and b.txt too', undefined, true],
        ['second', 2, undefined],
      ],
    );
    assert.deepEqual(replay.map((e) => e.role), ['user', 'tool', 'user', 'assistant', 'user', 'assistant']);
  });

  it('issue 19 checkpoints: each user message carries its turn number, counted from 1; @-mentioned files and compactions do not count', async () => {
    h = await createHarness({ files: { 'a.txt': 'alpha\n' } });
    const s = h.agent.newSession();
    const withMention = await h.agent.compose({ text: 'look at @a.txt' });
    await turns(s, 'first');
    h.server.enqueue({ text: 'looked' });
    await h.agent.runTurn(s, withMention.content, new AbortController().signal);
    h.server.enqueue({ text: '## Task\nsummary' });
    await h.agent.compact(s, undefined, new AbortController().signal);
    await turns(s, 'third');

    const replay = toTranscript(stored(s).messages);
    assert.deepEqual(userRows(replay), ['1: first', '2: look at @a.txt', '3: third']);
    assert.deepEqual(
      replay.map((e) => e.role),
      ['user', 'assistant', 'user', 'assistant', 'compaction', 'user', 'assistant'],
    );
  });

  it('issue 19 rewind: messages a rewind took back are hidden; later messages keep counting over the whole transcript', async () => {
    h = await createHarness();
    const s = h.agent.newSession();
    await turns(s, 'one', 'two', 'three');
    assert.equal(await h.agent.rewind(s, 2), true);
    await turns(s, 'two again');

    const replay = toTranscript(stored(s).messages);
    assert.deepEqual(userRows(replay), ['1: one', '4: two again'], 'messages 2 and 3 are rewound; the new message is the 4th the user sent');
    assert.deepEqual(
      replay.map((e) => (e.role === 'assistant' ? e.text : e.role)),
      ['user', 'answer to one', 'user', 'answer to two again'],
      'their answers go with them, and the rewind itself is not shown',
    );

    // Rewinding to the new message's turn goes back to before it, not to before the old 2nd.
    assert.equal(await h.agent.rewind(s, 4), true);
    assert.deepEqual(userRows(toTranscript(stored(s).messages)), ['1: one']);
  });
});
