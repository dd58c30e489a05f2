import assert from 'node:assert/strict';
import { ConsoleLog, consoleBlock, CONSOLE_KEEP } from '../../../extension/core/browser/console-log';

describe('browser console log', () => {
  it('reports each message once, in a "Console errors:" block, and nothing when there is nothing new', () => {
    const log = new ConsoleLog();
    assert.equal(consoleBlock(log), '');
    log.add('error', 'boom');
    log.add('warning', 'careful');
    log.add('exception', 'Error: uncaught');
    assert.equal(consoleBlock(log), '\n\nConsole errors:\n[error] boom\n[warning] careful\n[exception] Error: uncaught');
    assert.equal(consoleBlock(log), '');
    log.add('error', 'again');
    assert.equal(consoleBlock(log), '\n\nConsole errors:\n[error] again');
  });

  it('keeps the last 50 and says how many were dropped; repeats are folded', () => {
    const log = new ConsoleLog();
    for (let i = 1; i <= 60; i++) log.add('error', `e${i}`);
    const block = consoleBlock(log);
    const lines = block.split('\n').slice(4);
    assert.match(block, /\(10 earlier message\(s\) not kept; only the last 50 are\)/);
    assert.equal(lines.length, CONSOLE_KEEP);
    assert.equal(lines[0], '[error] e11');
    assert.equal(lines[49], '[error] e60');
    for (let i = 0; i < 5; i++) log.add('warning', 'same');
    assert.equal(consoleBlock(log), '\n\nConsole errors:\n[warning] same (×5)');
  });

  it('clips very long messages', () => {
    const log = new ConsoleLog();
    log.add('error', 'x'.repeat(5000));
    assert.ok(consoleBlock(log).length < 700);
  });
});
