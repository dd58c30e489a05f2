import { vscodeStandIn } from './vscode-stand-in';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AgentHost } from '../../../extension/host/agent-host';
import { checkpointWorld, signal, write } from '../checkpoints/world';

const SID = '0b7e5c1d-2a3f-4e5d-8c9b-0a1b2c3d4e5f';

/** What a modal or notification showed: its message, its detail, its buttons. */
interface Shown {
  text: string;
  detail?: string;
  buttons: string[];
}

describe('red team N2 (VS Code dialogs): names a repository or a model chose show their hidden characters escaped', function () {
  this.timeout(30000);
  const w = checkpointWorld('sp-host-dialogs');
  let shown: Shown[];
  let restoreCheckpoint: typeof import('../../../extension/host/checkpoints/checkpoint-commands').restoreCheckpoint;
  let dialogs: typeof import('../../../extension/host/dialogs');

  before(async () => {
    (vscodeStandIn as Record<string, unknown>).ProgressLocation = { Window: 10 };
    ({ restoreCheckpoint } = await import('../../../extension/host/checkpoints/checkpoint-commands'));
    dialogs = await import('../../../extension/host/dialogs');
  });

  const window = vscodeStandIn.window as Record<string, unknown>;
  const original = { ...window };
  after(() => Object.assign(window, original));

  beforeEach(() => {
    shown = [];
    const record = (text: string, ...rest: unknown[]) => {
      const options = rest.find((r): r is { detail?: string } => typeof r === 'object' && r !== null);
      shown.push({ text, detail: options?.detail, buttons: rest.filter((r): r is string => typeof r === 'string') });
      return Promise.resolve(undefined); // every question declined: nothing is restored
    };
    window.showInformationMessage = record;
    window.showWarningMessage = record;
    window.showErrorMessage = record;
    window.withProgress = (_o: unknown, fn: () => Promise<unknown>) => fn();
  });

  it('N2: the restore question lists a file whose name holds a right-to-left override with the override written out, so it cannot pass for another name', async () => {
    write(w.ws, 'a.txt', 'aye\n');
    await w.store.snapshot(SID, 1, signal());
    // Read right to left from the override, "exe.txt" shows as "txt.exe"-like text in a dialog that honours bidi.
    const crafted = 'notes\u202etxt.exe';
    fs.writeFileSync(path.join(w.ws, crafted), 'made later\n');
    const host = {
      checkpoints: w.store,
      currentSession: () => ({ id: SID, messages: [{ role: 'user', content: 'x' }] }),
      busyReason: () => undefined,
      startedAgent: () => undefined,
      edits: { changes: { keep: async () => {} } },
    } as unknown as AgentHost;
    await restoreCheckpoint(host, { error: () => {} }, { type: 'checkpoint.restore', sessionId: SID, turn: 1, rewind: false });
    const q = shown.find((s) => s.buttons.includes('Restore'));
    assert.ok(q, shown.map((s) => s.text).join('\n'));
    assert.ok(q.detail?.includes('notes\\u{202e}txt.exe'), q.detail);
    assert.ok(!q.detail?.includes('\u202e'), 'no raw override in the dialog');
    assert.ok(fs.existsSync(path.join(w.ws, crafted)), 'declined: nothing was deleted');
  });

  it('every message and detail goes through the one escaper; line breaks and tabs stay', async () => {
    await dialogs.showWarning('start "\u2066evil\u2069" from \x1b[2Jhere?', { modal: true, detail: 'line one\n\tcommand: rm\u200b -rf' }, 'Start');
    await dialogs.showInfo('done\u202e');
    await dialogs.showError('failed: \u0007bell');
    assert.deepEqual(
      shown.map((s) => [s.text, s.detail ?? null, s.buttons]),
      [
        ['start "\\u{2066}evil\\u{2069}" from \\x1b[2Jhere?', 'line one\n\tcommand: rm\\u{200b} -rf', ['Start']],
        ['done\\u{202e}', null, []],
        ['failed: \\x07bell', null, []],
      ],
    );
  });
});
