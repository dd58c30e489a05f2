import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../extension/core/conversation/events';
import type { Message } from '../../../extension/core/conversation/messages';
import { toTranscript } from '../../../extension/host/chat/transcript';
import type { TranscriptEntry } from '../../../extension/protocol';
import { createHarness, type Harness } from '../../fixtures/agent-harness';
import { docsLookup, reopenStored } from './replay-world';

/** Issue 21, facts as data: a call's title and summary and the tools a call loaded travel as data, live and in a replay. */

const lookup = docsLookup;

type ToolEntry = Extract<TranscriptEntry, { role: 'tool' }>;
type ToolMessage = Extract<Message, { role: 'tool' }>;
const toolEntries = (entries: TranscriptEntry[]) => entries.filter((e): e is ToolEntry => e.role === 'tool');
const chips = (entries: TranscriptEntry[]) => entries.flatMap((e) => (e.role === 'tools.loaded' ? [e.tools.join(', ')] : []));

describe('host: titles, summaries and loaded tools as data (issue 21)', () => {
  let h: Harness;
  const stored = reopenStored(() => h);

  it('the tool.call event carries the title (the name for bad arguments) and the summary; the replay shows the same', async () => {
    h = await createHarness({ files: { 'a.ts': 'export const a = 1;\n' } });
    h.server.enqueue(
      {
        toolCalls: [
          { name: 'read_file', arguments: '{"path":"a.ts"}' },
          { name: 'grep', arguments: '{"pattern":"export"}' },
          { name: 'read_file', arguments: '{"path": 3}' },
        ],
      },
      { text: 'done' },
    );
    const s = h.agent.newSession();
    await h.agent.runTurn(s, 'look', new AbortController().signal);

    const calls = h.events.filter((e): e is Extract<AgentEvent, { type: 'tool.call' }> => e.type === 'tool.call');
    assert.deepEqual(
      calls.map((e) => [e.title, e.summary]),
      [
        ['read a.ts', ''],
        ['grep /export/', ''],
        ['read_file', '3'],
      ],
      'a describeCall title says what runs; arguments that do not parse fall back to the name and show what was sent',
    );
    const results = h.events.filter((e): e is Extract<AgentEvent, { type: 'tool.result' }> => e.type === 'tool.result');
    assert.match(results[2]!.summary, /^error \(invalid_arguments\)/);

    const replay = toolEntries(toTranscript(stored(s).messages));
    assert.deepEqual(
      replay.map((e) => [e.callId, e.title, e.summary]),
      calls.map((c, i) => [c.callId, c.title, results[i]!.summary]),
      'the replayed cards have the live titles and the live final summaries',
    );
  });

  it('records the tools a call loaded on its tool message, keeps the text the model reads, and replays from the record', async () => {
    h = await createHarness({ extraTools: [lookup] });
    h.server.enqueue(
      { toolCalls: [{ name: 'tool_search', arguments: JSON.stringify({ query: 'select:git_diff,git_commit' }) }] },
      { toolCalls: [{ name: 'mcp__docs__lookup', arguments: '{"word":"pea"}' }] },
      { toolCalls: [{ name: 'tool_search', arguments: JSON.stringify({ query: 'select:git_diff' }) }] },
      { text: 'done' },
    );
    const s = h.agent.newSession();
    await h.agent.runTurn(s, 'look it up', new AbortController().signal);

    const messages = stored(s).messages;
    const results = messages.filter((m): m is ToolMessage => m.role === 'tool');
    assert.deepEqual(
      results.map((m) => m.loadedTools),
      [['git_diff', 'git_commit'], ['mcp__docs__lookup'], undefined],
      'stored with the transcript; a search that found its tools loaded already records none',
    );
    assert.ok(results[1]!.content.endsWith('\nloaded mcp__docs__lookup for this session'), 'the model still reads that the tool loaded itself');
    const lookupCall = h.events.find((e) => e.type === 'tool.call' && e.tool === lookup.name);
    assert.equal(lookupCall?.type === 'tool.call' && lookupCall.title, 'docs: look up pea');

    // Replay reads the record: with the words gone from the results, the chips stay.
    const silent = messages.map((m) => (m.role === 'tool' ? { ...m, content: 'ok' } : m));
    assert.deepEqual(chips(toTranscript(silent)), ['git_diff, git_commit', 'mcp__docs__lookup']);
  });

  it('an old transcript (no loadedTools, no titles) still replays its chips from the result text; the record wins where it exists', () => {
    const old: Message[] = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'c1', name: 'tool_search', arguments: '{"query":"select:git_diff"}' },
          { id: 'c2', name: 'git_status', arguments: '{}' },
          { id: 'c3', name: 'shell', arguments: '{"command":"npm test"}' },
        ],
      },
      { role: 'tool', toolCallId: 'c1', toolName: 'tool_search', ok: true, content: 'loaded git_diff; callable from your next round\n- git_diff (git, read): Show a diff' },
      { role: 'tool', toolCallId: 'c2', toolName: 'git_status', ok: true, content: 'clean\nloaded git_status for this session' },
    ];
    const replay = toTranscript(old);
    assert.deepEqual(chips(replay), ['git_diff', 'git_status']);
    assert.deepEqual(
      toolEntries(replay).map((e) => [e.title, e.summary]),
      [
        ['tool_search', 'loaded git_diff; callable from your next round'],
        ['git_status', 'clean'],
        ['shell', 'npm test'],
      ],
      "no stored title: the tool's name, and a call with no result yet shows its arguments as the live card did",
    );

    const recorded: Message[] = [
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'tool_search', arguments: '{}', title: 'tool_search select:git_log' }] },
      { role: 'tool', toolCallId: 'c1', toolName: 'tool_search', ok: true, content: 'loaded git_diff; callable from your next round', loadedTools: ['git_log'] },
    ];
    assert.deepEqual(chips(toTranscript(recorded)), ['git_log'], 'the record, not the text');
    assert.equal(toolEntries(toTranscript(recorded))[0]!.title, 'tool_search select:git_log');
  });
});
