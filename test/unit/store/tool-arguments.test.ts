import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { journalPath } from '../../../extension/core/store';
import { createHarness, type Harness } from '../../fixtures/agent-harness';
import { newSession, open, tempDir } from './helpers';

describe('store: tool-call arguments are stored once (P19)', () => {
  let h: Harness | null = null;
  afterEach(async () => {
    await h?.close().catch(() => {});
    h = null;
  });

  it('P19: a 2 MB write_file argument lives in one content file; state.db and its journal stay small; resume and export give the same bytes', async () => {
    // Storage is what this tests: a 2 MB argument cannot fit a real window, so compaction (which
    // would ask the scripted model for a summary) is off.
    h = await createHarness({ settings: { 'agent.compactAt': null } });
    const content = Array.from({ length: 40_000 }, (_, i) => `line ${i} ünïcødé ${'z'.repeat(30)}`).join('\n');
    const args = JSON.stringify({ path: 'big.txt', content });
    assert.ok(args.length > 2_000_000);
    h.server.enqueue({ toolCalls: [{ name: 'write_file', arguments: args }] }, { text: 'written' });
    const session = h.agent.newSession();
    const result = await h.agent.runTurn(session, 'write the big file', new AbortController().signal);
    assert.equal(result.reason, 'done');
    assert.equal(fs.readFileSync(path.join(h.workspace, 'big.txt'), 'utf8'), content);
    assert.ok(fs.statSync(journalPath(h.dbFile)).size < 100_000, 'the journal line refers to the file');
    const dbFile = h.dbFile;
    await h.close();
    h = null;
    assert.ok(fs.statSync(dbFile).size < 1_000_000, `state.db is ${fs.statSync(dbFile).size} bytes`);
    const files = fs.readdirSync(`${dbFile}.content`).map((n) => fs.readFileSync(path.join(`${dbFile}.content`, n), 'utf8'));
    assert.equal(files.filter((f) => f === args).length, 1, 'one content file holds the arguments');

    const again = await open(dbFile);
    const assistant = again.getMessages(session.id).find((m) => m.role === 'assistant' && m.toolCalls?.length);
    assert.ok(assistant && assistant.role === 'assistant');
    assert.equal(assistant.toolCalls![0].arguments, args);
    // The call as appended (its card title included), no argumentsRef left behind.
    assert.deepEqual(Object.keys(assistant.toolCalls![0]), ['id', 'name', 'arguments', 'title']);
    const exported = JSON.parse(again.exportSession(session.id, 'json'));
    const call = exported.messages.find((m: { message: { toolCalls?: unknown[] } }) => m.message.toolCalls)!.message.toolCalls[0];
    assert.equal(call.arguments, args);
    const toolCallEvent = exported.events.find((e: { type: string }) => e.type === 'tool.call');
    assert.ok(toolCallEvent, 'the tool.call event is kept');
    assert.equal(toolCallEvent.event.args, undefined, 'without a second copy of the arguments');
    await again.close();
  });

  it('P19: content files of tool-call arguments count as referenced (not removed at open)', async () => {
    const file = path.join(tempDir(), 'state.db');
    const db = await open(file);
    const s = db.createSession(newSession);
    const args = JSON.stringify({ content: 'q'.repeat(20_000) });
    db.appendMessage(s.id, { turn: 1, round: 1, message: { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'write_file', arguments: args }] } });
    await db.close();
    for (let i = 0; i < 2; i++) await (await open(file)).close();
    const again = await open(file);
    const [m] = again.getMessages(s.id);
    assert.equal(m.role === 'assistant' && m.toolCalls![0].arguments, args);
    await again.close();
  });
});
