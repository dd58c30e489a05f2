import assert from 'node:assert/strict';
import { Session } from '../../../extension/core/conversation/session';
import { defaultSettings } from '../../../extension/core/settings/schema';
import { ToolRegistry } from '../../../extension/core/tools/registry';
import { SessionToolRuntime } from '../../../extension/core/tools/runtime';
import { okResult } from '../../../extension/core/tools/types';
import { standInTool } from '../../fixtures/stand-in-tool';
import { makeCtx, tempDir } from './helpers';

/** A custom agent's tool list that counts its lookups: only the offer gate reads it (toolAllowed). */
class CountingList extends Array<string> {
  lookups = 0;
  override some(predicate: (value: string, index: number, array: string[]) => unknown): boolean {
    this.lookups++;
    return super.some(predicate);
  }
}

const probe = standInTool('probe', async () => okResult('ran'));

describe('tool runtime: the offer gate runs once per call', () => {
  function setup(allowed: string[]) {
    const tools = CountingList.from(allowed) as CountingList;
    const customAgent = { name: 'reviewer', instructions: 'review', tools };
    const session = new Session({ workspaceRoot: '/w', parentId: 'parent', role: 'reviewer', customAgent });
    const ctx = makeCtx(tempDir(), { extra: { session: { id: session.id, mode: session.mode, role: session.role, isSubagent: true, customAgent } } });
    const registry = new ToolRegistry([probe]);
    const runtime = new SessionToolRuntime(registry, () => defaultSettings());
    return { tools, session, ctx, registry, runtime };
  }

  const call = { id: 'c1', name: 'probe', arguments: '{}' };

  it('a call the session may make: checked by the runtime, not again by the registry', async () => {
    const { tools, session, ctx, runtime } = setup(['probe']);
    const result = await runtime.execute(session, call, ctx, () => {});
    assert.equal(result.content, 'ran');
    assert.equal(tools.lookups, 1);
  });

  it('a call the session may not make: refused once, before the registry', async () => {
    const { tools, session, ctx, runtime } = setup(['other']);
    const result = await runtime.execute(session, call, ctx, () => {});
    assert.equal(result.error?.code, 'policy_blocked');
    assert.equal(tools.lookups, 1);
  });

  it('the registry called directly (the CLI) still checks the offer, once', async () => {
    const refused = setup(['other']);
    assert.equal((await refused.registry.invoke('probe', '{}', refused.ctx)).error?.code, 'policy_blocked');
    assert.equal(refused.tools.lookups, 1);
    const allowed = setup(['probe']);
    assert.equal((await allowed.registry.invoke('probe', '{}', allowed.ctx)).content, 'ran');
    assert.equal(allowed.tools.lookups, 1);
  });
});
