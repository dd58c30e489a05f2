import assert from 'node:assert/strict';
import { SessionPromptBuilder } from '../../../extension/core/context/prompt-builder';
import { Session } from '../../../extension/core/conversation/session';
import { prunedStub } from '../../../extension/core/context/prune';
import { defaultSettings } from '../../../extension/core/settings/schema';

describe('prompt builder: what pruning left out of the latest request', () => {
  it('reports the pruned calls with their stubs beside the counts (the webview marks those tool cards)', () => {
    const settings = { ...defaultSettings(), 'agent.keepToolRounds': 1 };
    const builder = new SessionPromptBuilder({ settings: () => settings, deferredLine: () => undefined });
    const session = new Session({ workspaceRoot: '/w' });
    session.messages.push({ role: 'user', content: 'go' });
    for (const [id, size] of [['c1', 400], ['c2', 700]] as const) {
      session.messages.push(
        { role: 'assistant', content: '', toolCalls: [{ id, name: 'shell', arguments: '{}' }] },
        { role: 'tool', toolCallId: id, toolName: 'shell', ok: true, content: 'x'.repeat(size) },
      );
    }
    const sent = builder.requestMessages(session);
    const stub = prunedStub('shell', 400);
    assert.equal(sent.find((m) => m.role === 'tool' && m.toolCallId === 'c1')?.content, stub);
    assert.deepEqual(builder.lastPruneStats(session.id), { prunedChars: 400 - stub.length, prunedResults: 1, prunedCalls: [{ callId: 'c1', stub }] });
  });
});
