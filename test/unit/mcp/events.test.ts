import assert from 'node:assert/strict';
import type { McpManager } from '../../../extension/core/mcp/manager';
import { ToolRegistry } from '../../../extension/core/tools/registry';
import { recordingLogger } from '../../fixtures/recording-logger';
import { managerFor, stdioEntry } from './fixture';

/** The MCP manager's change event (the host's start notifications and views listen to it). */
describe('MCP events: the manager’s change event and the registry’s onWillInvoke', function () {
  this.timeout(60_000);
  const open: McpManager[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((m) => m.close()));
  });

  it('reports each state of a start to its listeners in order', async () => {
    const { manager } = managerFor({ fx: stdioEntry() });
    open.push(manager);
    const states: string[] = [];
    manager.onDidChange(() => states.push(manager.servers()[0].state));
    await manager.start('fx');
    assert.deepEqual([...new Set(states)], ['starting', 'running']);
  });

  it('a listener that throws is logged as an error and the other listeners still hear the change; after close nobody does', async () => {
    const log = recordingLogger();
    const { manager } = managerFor({}, { logger: log });
    open.push(manager);
    let heard = 0;
    manager.onDidChange(() => {
      throw new Error('a broken view');
    });
    manager.onDidChange(() => heard++);
    manager.refreshAccess();
    assert.equal(heard, 1);
    assert.deepEqual(log.lines, ['error: MCP: a listener of the server list failed: a broken view']);
    await manager.close();
    manager.refreshAccess();
    assert.equal(heard, 1);
  });

  it('the registry tells every onWillInvoke listener (the manager’s tool_search hook) of a call before it runs, even when one of them throws', async () => {
    const errors: unknown[] = [];
    const registry = new ToolRegistry([], { onListenerError: (e) => errors.push(e) });
    registry.onWillInvoke(() => {
      throw new Error('first listener broke');
    });
    const seen: string[] = [];
    registry.onWillInvoke(({ name, rawArgs }) => seen.push(`${name} ${rawArgs}`));
    const r = await registry.invoke('tool_search', '{"query":"select:nothing"}', {} as never);
    assert.equal(r.error?.code, 'unknown_tool');
    assert.deepEqual(seen, ['tool_search {"query":"select:nothing"}']);
    assert.deepEqual(errors.map((e) => (e as Error).message), ['first listener broke']);
  });
});
