import assert from 'node:assert/strict';
import type { ToolName } from '../../../extension/core/tools/names';
import { z } from 'zod';
import { Session } from '../../../extension/core/conversation/session';
import { defaultSettings, type Settings } from '../../../extension/core/settings/schema';
import { createBuiltinTools } from '../../../extension/core/tools/index';
import { ToolRegistry } from '../../../extension/core/tools/registry';
import { SessionToolRuntime } from '../../../extension/core/tools/runtime';
import { defineTool, okResult, type AnyTool } from '../../../extension/core/tools/types';

const fake = (name: string): AnyTool =>
  defineTool({ name: name as ToolName, traits: { readOnly: false, repeat: 'scan', subagents: true, images: true }, group: 'mcp:fake', permission: 'exec', summary: name, description: name, input: z.object({}), deferred: true, run: async () => okResult('ok') }) as AnyTool;

const names = (tools: Array<{ function: { name: string } }>) => tools.map((t) => t.function.name);

describe('tool runtime: cached active set', () => {
  function setup() {
    const registry = new ToolRegistry([...createBuiltinTools(), fake('mcp__fake__a'), fake('mcp__fake__b')]);
    let settings: Settings = defaultSettings();
    const runtime = new SessionToolRuntime(registry, () => settings);
    registry.onDidChange(() => runtime.invalidate());
    const session = new Session({ workspaceRoot: '/w' });
    return { registry, runtime, session, set: (patch: Partial<Settings>) => (settings = { ...settings, ...patch }) };
  }

  it('returns the same tools block while nothing changes', () => {
    const { runtime, session } = setup();
    const a = runtime.toolsFor(session);
    assert.equal(runtime.toolsFor(session), a);
    assert.ok(!names(a).includes('mcp__fake__a'));
  });

  it('follows loaded tools, the mode, the settings and the catalog', () => {
    const { registry, runtime, session, set } = setup();
    const before = names(runtime.toolsFor(session));

    session.loadTools(['mcp__fake__b']);
    assert.deepEqual(names(runtime.toolsFor(session)), [...before, 'mcp__fake__b']);
    assert.equal(runtime.isActive(session, 'mcp__fake__b'), true);

    session.mode = 'plan';
    const plan = names(runtime.toolsFor(session));
    assert.ok(!plan.includes('write_file') && !plan.includes('mcp__fake__b'), 'plan mode drops write and exec tools');
    session.mode = 'code';

    set({ 'tools.eager': ['mcp__fake__a'] });
    assert.ok(names(runtime.toolsFor(session)).includes('mcp__fake__a'));
    set({ 'tools.deferred': false });
    assert.equal(runtime.toolsFor(session).length, registry.all().length);
    set({ 'tools.deferred': true, 'tools.eager': [] });

    const d = registry.register(fake('mcp__fake__c'));
    session.loadTools(['mcp__fake__c']);
    assert.ok(names(runtime.toolsFor(session)).includes('mcp__fake__c'));
    d.dispose();
    assert.ok(!names(runtime.toolsFor(session)).includes('mcp__fake__c'), 'an unregistered tool leaves the block');
    assert.equal(runtime.isActive(session, 'mcp__fake__c'), false);
  });

  it('keeps sessions and roles apart', () => {
    const { runtime, session } = setup();
    const child = new Session({ workspaceRoot: '/w', parentId: session.id, role: 'explore' });
    const parentTools = names(runtime.toolsFor(session));
    const childTools = names(runtime.toolsFor(child));
    assert.ok(parentTools.includes('ask_user') && parentTools.includes('write_file'));
    assert.ok(!childTools.includes('ask_user') && !childTools.includes('write_file'));
    assert.deepEqual(names(runtime.toolsFor(session)), parentTools);
  });
});
