import { vscodeStandIn } from './vscode-stand-in';
import assert from 'node:assert/strict';
import type { TurnNotifier as Notifier } from '../../../extension/host/chat/turn-notifier';

interface Shown {
  kind: 'info' | 'warning';
  text: string;
  buttons: string[];
}

describe('host: notifications while the window is not focused (issue 30 item 3)', () => {
  let TurnNotifier: typeof Notifier;
  const window = vscodeStandIn.window as Record<string, unknown>;
  const original = { ...window };
  let shown: Shown[];
  let answer: string | undefined;

  before(async () => {
    ({ TurnNotifier } = await import('../../../extension/host/chat/turn-notifier'));
  });
  after(() => {
    for (const k of Object.keys(window)) if (!(k in original)) delete window[k];
    Object.assign(window, original);
  });
  beforeEach(() => {
    shown = [];
    answer = undefined;
    const record = (kind: Shown['kind']) => (text: string, ...buttons: string[]) => {
      shown.push({ kind, text, buttons });
      return Promise.resolve(answer);
    };
    Object.assign(window, { showInformationMessage: record('info'), showWarningMessage: record('warning'), state: { focused: false } });
  });

  function notifier(enabled = true, title = 'fix the parser') {
    const showChat: string[] = [];
    const n = new TurnNotifier({ enabled: () => enabled, title: () => title, showChat: () => void showChat.push('shown') });
    return { n, showChat };
  }

  it('a turn that ended says so with Show Chat, which shows the chat; a stopped turn says nothing', async () => {
    const { n, showChat } = notifier();
    answer = 'Show Chat';
    n.turnEnded('done');
    n.turnEnded('cancelled');
    n.turnEnded('error');
    n.turnEnded('max_rounds');
    n.turnEnded('budget');
    assert.deepEqual(shown, [
      { kind: 'info', text: 'Snowpea finished: fix the parser', buttons: ['Show Chat'] },
      { kind: 'warning', text: 'Snowpea stopped with an error: fix the parser', buttons: ['Show Chat'] },
      { kind: 'warning', text: 'Snowpea stopped at the round limit: fix the parser', buttons: ['Show Chat'] },
      { kind: 'warning', text: 'Snowpea stopped at your budget: fix the parser', buttons: ['Show Chat'] },
    ]);
    await new Promise((r) => setImmediate(r));
    assert.equal(showChat.length, 4);
  });

  it('an approval, a question or a budget pause the turn waits on is said, its text short and its hidden characters escaped', () => {
    const { n } = notifier();
    n.waiting({ type: 'approval.request', id: 'a', tool: 'shell', summary: 'rm -rf build \u202e; echo' });
    n.waiting({ type: 'ask.request', id: 'q', question: `Which one?\n${'x'.repeat(300)}` });
    n.waiting({ type: 'budget.request', id: 'b', model: 'm', cost: 0.2, promptTokens: 1000, cachedTokens: 0, passes: [{ scope: 'turn', limit: 0.1, spent: 0.05 }] });
    n.waiting({ type: 'notice', text: 'not a request' });
    assert.equal(shown.length, 3);
    assert.equal(shown[2].text, 'Snowpea paused: its next request would pass your budget (agent.budget).');
    assert.equal(shown[0].text, 'Snowpea waits for your approval: rm -rf build \\u{202e}; echo');
    assert.match(shown[1].text, /^Snowpea asks: Which one\? x+…$/);
    assert.ok(shown[1].text.length < 150);
  });

  it('says nothing while the window is focused, or with snowpea.chat.notifyWhenUnfocused off', () => {
    (window.state as { focused: boolean }).focused = true;
    notifier().n.turnEnded('done');
    notifier().n.waiting({ type: 'approval.request', id: 'a', tool: 'shell', summary: 'ls' });
    (window.state as { focused: boolean }).focused = false;
    notifier(false).n.turnEnded('done');
    assert.deepEqual(shown, []);
  });
});
