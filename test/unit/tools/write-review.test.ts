import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { changedLines, lineCounts, proposalStat, shortDiff } from '../../../extension/core/tools/core/proposal';
import type { ApprovalAnswer, ApprovalDecision, ApprovalRequest, FileWriter } from '../../../extension/core/tools/types';
import { call, makeCtx, tempDir, writeTree } from './helpers';

/** An approver that records each request and answers with `answer(req)`, as the VS Code review does. */
function recordingApprover(answer: (req: ApprovalRequest) => ApprovalDecision | ApprovalAnswer) {
  const asked: ApprovalRequest[] = [];
  return { asked, approver: { approve: async (req: ApprovalRequest) => (asked.push(req), answer(req)) } };
}

describe('issue 19 review before it lands: proposals and answers', () => {
  const ws = tempDir();
  const read = (p: string) => fs.readFileSync(path.join(ws, p), 'utf8');
  beforeEach(() => writeTree(ws, { 'a.ts': 'one\ntwo\nthree\n', 'bom.txt': '\ufeffalpha\nbeta\n' }));

  it('issue 19: edit_file asks with the proposal (current and proposed text) and writes it on Accept', async () => {
    const r = recordingApprover(() => 'allow');
    const res = await call(makeCtx(ws, { extra: { approver: r.approver } }), 'edit_file', { path: 'a.ts', old_string: 'two', new_string: 'TWO' });
    assert.equal(res.ok, true, res.content);
    assert.deepEqual(r.asked[0].proposal, { path: path.join(ws, 'a.ts'), display: 'a.ts', current: 'one\ntwo\nthree\n', proposed: 'one\nTWO\nthree\n', created: false });
    assert.equal(read('a.ts'), 'one\nTWO\nthree\n');
    assert.match(res.content, /^edited a\.ts: replaced 1 line/);
  });

  it('issue 19: write_file of a new file proposes it against empty text', async () => {
    const r = recordingApprover(() => 'allow');
    await call(makeCtx(ws, { extra: { approver: r.approver } }), 'write_file', { path: 'new/b.ts', content: 'x\ny\n' });
    assert.deepEqual(r.asked[0].proposal, { path: path.join(ws, 'new/b.ts'), display: 'new/b.ts', current: '', proposed: 'x\ny\n', created: true });
    assert.equal(proposalStat(r.asked[0].proposal!), '+2 −0');
  });

  it('issue 19: the text the user accepted is written exactly, and the model is told with a diff of their change', async () => {
    const r = recordingApprover((req) => ({ decision: 'allow', text: req.proposal!.proposed.replace('TWO', 'Two (user)') }));
    const res = await call(makeCtx(ws, { extra: { approver: r.approver } }), 'edit_file', { path: 'a.ts', old_string: 'two', new_string: 'TWO' });
    assert.equal(res.ok, true, res.content);
    assert.equal(read('a.ts'), 'one\nTwo (user)\nthree\n');
    assert.match(res.content, /The user changed your edit of a\.ts before accepting it/);
    assert.match(res.content, /-TWO\n\+Two \(user\)/);
    assert.deepEqual(res.writtenPaths, [path.join(ws, 'a.ts')]);
  });

  it('issue 19: an accepted edit keeps the file\'s UTF-8 BOM; the proposal shows the text without it', async () => {
    const r = recordingApprover((req) => ({ decision: 'allow', text: req.proposal!.proposed + 'gamma\n' }));
    await call(makeCtx(ws, { extra: { approver: r.approver } }), 'edit_file', { path: 'bom.txt', old_string: 'beta', new_string: 'BETA' });
    assert.equal(r.asked[0].proposal!.current, 'alpha\nbeta\n');
    assert.equal(read('bom.txt'), '\ufeffalpha\nBETA\ngamma\n');
  });

  it('issue 19: Reject leaves the file alone and the model is told', async () => {
    const r = recordingApprover(() => ({ decision: 'deny' }));
    const res = await call(makeCtx(ws, { extra: { approver: r.approver } }), 'write_file', { path: 'a.ts', content: 'gone\n' });
    assert.equal(res.error?.code, 'denied');
    assert.match(res.content, /the user declined write a\.ts/);
    assert.equal(read('a.ts'), 'one\ntwo\nthree\n');
  });

  it('issue 19: an edit that cannot apply fails without asking the user', async () => {
    const r = recordingApprover(() => 'allow');
    const res = await call(makeCtx(ws, { extra: { approver: r.approver } }), 'edit_file', { path: 'a.ts', old_string: 'four', new_string: '4' });
    assert.equal(res.error?.code, 'no_match');
    assert.equal(r.asked.length, 0);
  });

  it('issue 19: a file that changed while the review was open is not overwritten', async () => {
    const r = recordingApprover(() => (fs.writeFileSync(path.join(ws, 'a.ts'), 'typed meanwhile\n'), 'allow'));
    const res = await call(makeCtx(ws, { extra: { approver: r.approver } }), 'edit_file', { path: 'a.ts', old_string: 'two', new_string: 'TWO' });
    assert.equal(res.error?.code, 'failed');
    assert.match(res.content, /changed while the edit waited for approval/);
    assert.equal(read('a.ts'), 'typed meanwhile\n');
  });

  it('issue 19: auto-approved writes are not asked about and tell the writer they were not reviewed', async () => {
    const seen: Array<boolean | undefined> = [];
    const writer: FileWriter = { write: async (_p, _b, _s, o) => void seen.push(o?.reviewed) };
    const r = recordingApprover(() => 'allow');
    const ctx = makeCtx(ws, { settings: { 'approvals.autoApprove': ['write'] }, extra: { approver: r.approver, fileWriter: writer } });
    await call(ctx, 'edit_file', { path: 'a.ts', old_string: 'two', new_string: 'TWO' });
    const asked = makeCtx(ws, { extra: { approver: r.approver, fileWriter: writer } });
    await call(asked, 'edit_file', { path: 'a.ts', old_string: 'two', new_string: 'TWO' });
    assert.equal(r.asked.length, 1);
    assert.deepEqual(seen, [false, true]);
  });

  it('issue 19 keep or undo: the lines the agent changed, as the editor marks them (CRLF too)', () => {
    assert.deepEqual(changedLines('a\nb\nc\n', 'a\nB\nc\nd\n'), [1, 3]);
    assert.deepEqual(changedLines('a\r\nb\r\n', 'x\r\na\r\nb\r\n'), [0]);
    assert.deepEqual(changedLines('a\nb\n', 'a\n'), []);
  });

  it('issue 19: line counts and a capped unified diff', () => {
    assert.deepEqual(lineCounts('a\nb\nc\n', 'a\nB\nc\nd\n'), { added: 2, removed: 1 });
    const long = Array.from({ length: 200 }, (_, i) => `line ${i}`).join('\n');
    const d = shortDiff('', long, 'x', 'y');
    assert.ok(d.split('\n').length <= 41);
    assert.match(d, /diff cut/);
  });
});
