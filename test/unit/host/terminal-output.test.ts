import assert from 'node:assert/strict';
import { MAX_RECORDED_CHARS, TerminalRecorder, type TerminalWindow } from '../../../extension/host/workspace/terminal-output';
import { waitUntil } from '../../fixtures/eventually';

/** An event as vscode.Event is: subscribe, get a disposable. */
function emitter<T>() {
  const listeners = new Set<(e: T) => void>();
  const event = (l: (e: T) => void) => {
    listeners.add(l);
    return { dispose: () => void listeners.delete(l) };
  };
  return { event, fire: (e: T) => listeners.forEach((l) => l(e)), get count() { return listeners.size; } };
}

/** A command's output stream that the test writes to, as execution.read() gives it. */
function execution(command: string) {
  const chunks: string[] = [];
  let wake: (() => void) | undefined;
  let done = false;
  let reads = 0;
  return {
    commandLine: { value: command },
    cwd: { fsPath: '/work' },
    read(): AsyncIterable<string> {
      reads++;
      return {
        async *[Symbol.asyncIterator]() {
          for (;;) {
            if (chunks.length) yield chunks.shift()!;
            else if (done) return;
            else await new Promise<void>((r) => (wake = r));
          }
        },
      };
    },
    write(text: string) {
      chunks.push(text);
      wake?.();
    },
    close() {
      done = true;
      wake?.();
    },
    get drained() {
      return chunks.length === 0;
    },
    get reads() {
      return reads;
    },
  };
}

type Terminal = { name: string; shellIntegration?: object };

function fakeWindow(withApi = true) {
  const start = emitter<{ terminal: Terminal; execution: ReturnType<typeof execution> }>();
  const end = emitter<{ terminal: Terminal; execution: ReturnType<typeof execution>; exitCode: number | undefined }>();
  const close = emitter<Terminal>();
  const win = {
    activeTerminal: undefined as Terminal | undefined,
    onDidCloseTerminal: close.event,
    ...(withApi ? { onDidStartTerminalShellExecution: start.event, onDidEndTerminalShellExecution: end.event } : {}),
  };
  return { win, start, end, close, recorder: new TerminalRecorder(win as unknown as TerminalWindow) };
}

describe('host: the terminal recorder behind @terminal (shell integration)', () => {
  it("records the active terminal's latest command from its start: output, cwd, exit code; a new command replaces it", async () => {
    const { win, start, end, recorder } = fakeWindow();
    const bash: Terminal = { name: 'bash', shellIntegration: {} };
    win.activeTerminal = bash;
    const first = execution('npm test');
    start.fire({ terminal: bash, execution: first });
    assert.equal(first.reads, 1, 'read from the start');
    first.write('1 failing\n');
    await waitUntil(() => first.drained, 'the output is read');
    assert.deepEqual(recorder.capture(), { status: 'ok', name: 'bash', command: 'npm test', cwd: '/work', running: true, output: '1 failing\n' });
    first.write('done\n');
    first.close();
    await waitUntil(() => first.drained, 'the rest is read');
    end.fire({ terminal: bash, execution: first, exitCode: 1 });
    assert.deepEqual(recorder.capture(), { status: 'ok', name: 'bash', command: 'npm test', cwd: '/work', running: false, exitCode: 1, output: '1 failing\ndone\n' });

    const second = execution('ls');
    start.fire({ terminal: bash, execution: second });
    // The first command's end, reported late, does not end the second.
    end.fire({ terminal: bash, execution: first, exitCode: 1 });
    const now = recorder.capture();
    assert.equal(now.status === 'ok' && now.command, 'ls');
    assert.equal(now.status === 'ok' && now.running, true);
    recorder.dispose();
  });

  it('keeps only the last MAX_RECORDED_CHARS of a long output, counting what went', async () => {
    const { win, start, recorder } = fakeWindow();
    const t: Terminal = { name: 'build', shellIntegration: {} };
    win.activeTerminal = t;
    const run = execution('make');
    start.fire({ terminal: t, execution: run });
    run.write('a'.repeat(MAX_RECORDED_CHARS));
    run.write('b'.repeat(1000));
    await waitUntil(() => run.drained, 'the output is read');
    const c = recorder.capture();
    assert.ok(c.status === 'ok');
    assert.equal(c.output.length, MAX_RECORDED_CHARS);
    assert.ok(c.output.endsWith('b'.repeat(1000)));
    assert.equal(c.droppedChars, 1000);
    recorder.dispose();
  });

  it('says why there is nothing: no terminal, no shell integration, no command yet, a closed terminal forgotten, no API', () => {
    const { win, start, close, recorder } = fakeWindow();
    assert.deepEqual(recorder.capture(), { status: 'no-terminal' });
    win.activeTerminal = { name: 'sh' };
    assert.deepEqual(recorder.capture(), { status: 'no-shell-integration', name: 'sh' });
    const zsh: Terminal = { name: 'zsh', shellIntegration: {} };
    win.activeTerminal = zsh;
    assert.deepEqual(recorder.capture(), { status: 'no-command', name: 'zsh' });
    start.fire({ terminal: zsh, execution: execution('echo hi') });
    assert.equal(recorder.capture().status, 'ok');
    close.fire(zsh);
    assert.deepEqual(recorder.capture(), { status: 'no-command', name: 'zsh' }, 'a closed terminal keeps nothing');
    recorder.dispose();
    assert.equal(start.count, 0, 'dispose stops listening');

    const old = fakeWindow(false);
    assert.equal(old.recorder.supported, false);
    old.win.activeTerminal = { name: 'bash' };
    assert.deepEqual(old.recorder.capture(), { status: 'no-api' });
  });
});
