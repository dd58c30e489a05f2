import { shownErrors, vscodeStandIn } from './vscode-stand-in';
import assert from 'node:assert/strict';
import type { AgentHost } from '../../../extension/host/agent-host';
import { checkpointWorld, exists, read, signal, write } from '../checkpoints/world';

const SID = '6f1c2a9e-0d1b-4c55-9e0f-1a2b3c4d5e6f';

/** What the notifications and modals showed, and the button each answers with. */
interface Shown {
  text: string;
  buttons: string[];
}

describe('VS Code Restore offers "Undo restore" (reliability N6, host)', function () {
  this.timeout(30000);
  const w = checkpointWorld('sp-host-undo');
  let shown: Shown[];
  let answer: (s: Shown) => string | undefined;
  let restoreCheckpoint: typeof import('../../../extension/host/checkpoints/checkpoint-commands').restoreCheckpoint;

  before(async () => {
    // Before the host module loads: its `import * as vscode` sees the properties the stand-in has then.
    (vscodeStandIn as Record<string, unknown>).ProgressLocation = { Window: 10 };
    ({ restoreCheckpoint } = await import('../../../extension/host/checkpoints/checkpoint-commands'));
  });

  beforeEach(() => {
    shown = [];
    answer = (s) => s.buttons[0];
    const window = vscodeStandIn.window as Record<string, unknown>;
    const ask = (text: string, ...rest: unknown[]) => {
      const s = { text, buttons: rest.filter((r): r is string => typeof r === 'string') };
      shown.push(s);
      return Promise.resolve(answer(s));
    };
    window.showInformationMessage = ask;
    window.showWarningMessage = ask;
    window.withProgress = (_o: unknown, fn: () => Promise<unknown>) => fn();
  });

  function fakeHost(): AgentHost {
    const session = { id: SID, messages: [{ role: 'user', content: 'edit a' }] };
    return {
      checkpoints: w.store,
      currentSession: () => session,
      busyReason: () => undefined,
      startedAgent: () => undefined,
      edits: { changes: { keep: async () => {} } },
    } as unknown as AgentHost;
  }

  /** Waits until a notification says `text` (the undo a notification's button starts is not awaited by the host). */
  async function shownText(text: string): Promise<void> {
    for (let n = 0; n < 300 && !shown.some((s) => s.text === text); n++) await new Promise((r) => setTimeout(r, 50));
  }

  it('N6: Restore overwrites the user\'s later edits; "Undo restore" in the notification puts them back', async () => {
    write(w.ws, 'a.txt', 'aye\n');
    write(w.ws, 'b.txt', 'bee\n');
    await w.store.snapshot(SID, 1, signal());
    write(w.ws, 'a.txt', 'agent\n');
    write(w.ws, 'b.txt', 'bee, edited by me\n');
    write(w.ws, 'notes.txt', 'my notes\n');

    // Confirm the restore; leave the notification after it unanswered for now.
    answer = (s) => (s.buttons.includes('Restore') ? 'Restore' : undefined);
    await restoreCheckpoint(fakeHost(), { error: () => {} }, { type: 'checkpoint.restore', sessionId: SID, turn: 1, rewind: false });
    assert.deepEqual(shownErrors, []);
    assert.equal(read(w.ws, 'b.txt').toString(), 'bee\n');
    assert.ok(!exists(w.ws, 'notes.txt'));
    const note = shown.at(-1)!;
    assert.equal(note.text, 'Snowpea: restored 3 files to before message 1.');
    assert.deepEqual(note.buttons, ['Undo restore']);

    // Now the same restore, answering "Undo restore" and then the undo's modal.
    write(w.ws, 'a.txt', 'agent\n');
    write(w.ws, 'b.txt', 'bee, edited by me\n');
    write(w.ws, 'notes.txt', 'my notes\n');
    // Every button, but not the undo's own offer to undo it.
    answer = (s) => (s.text.startsWith('Snowpea: put ') ? undefined : s.buttons[0]);
    await restoreCheckpoint(fakeHost(), { error: () => {} }, { type: 'checkpoint.restore', sessionId: SID, turn: 1, rewind: false });
    await shownText('Snowpea: put 3 files back as they were before the restore.');
    assert.ok(shown.some((s) => /^Undo the restore: put 3 files back as they were just before it\?$/.test(s.text)), shown.map((s) => s.text).join('\n'));
    assert.equal(read(w.ws, 'a.txt').toString(), 'agent\n');
    assert.equal(read(w.ws, 'b.txt').toString(), 'bee, edited by me\n');
    assert.equal(read(w.ws, 'notes.txt').toString(), 'my notes\n');
    assert.ok(shown.some((s) => s.text === 'Snowpea: put 3 files back as they were before the restore.'));
  });
});
