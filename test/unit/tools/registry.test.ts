import assert from 'node:assert/strict';
import type { ToolName } from '../../../extension/core/tools/names';
import { z } from 'zod';
import { createBuiltinTools } from '../../../extension/core/tools/index';
import { ToolRegistry } from '../../../extension/core/tools/registry';
import { defineTool, okResult, type AnyTool } from '../../../extension/core/tools/types';
import { call, makeCtx, tempDir, writeTree } from './helpers';

const echo = defineTool({
  name: 'echo_args' as ToolName, // stand-ins outside the name table
  traits: { readOnly: true, repeat: 'plain', subagents: true, images: false },
  group: 'test',
  permission: 'read',
  deferred: true,
  summary: 'Echo.',
  description: 'Echoes its arguments.',
  input: z.strictObject({ text: z.string(), count: z.number().int().min(1).optional(), opts: z.strictObject({ loud: z.boolean() }).optional() }),
  async run(a) {
    return okResult(JSON.stringify(a));
  },
});

function tool(name: string, run: AnyTool['run'], extra: Partial<AnyTool> = {}): AnyTool {
  return { name: name as ToolName, traits: { readOnly: true, repeat: 'plain', subagents: true, images: false }, group: 'test', permission: 'read', deferred: true, summary: name, description: name, input: z.strictObject({}), run, ...extra };
}

describe('tools: registry', () => {
  const ws = tempDir();

  it('registers, looks up, lists in order, refuses duplicates and bad names, and unregisters', () => {
    const r = new ToolRegistry();
    let changes = 0;
    const sub = r.onDidChange(() => changes++);
    const d = r.register(echo as AnyTool);
    assert.ok(r.has('echo_args'));
    assert.equal(r.get('echo_args'), echo);
    assert.throws(() => r.register(echo as AnyTool), /already registered/);
    assert.throws(() => r.register(tool('bad name!', async () => okResult(''))), /invalid tool name/);
    r.register(tool('other', async () => okResult('')));
    assert.deepEqual(r.all().map((t) => t.name), ['echo_args', 'other']);
    d.dispose();
    assert.ok(!r.has('echo_args'));
    assert.equal(r.unregister('nope'), false);
    assert.equal(changes, 3);
    sub.dispose();
    r.unregister('other');
    assert.equal(changes, 3);
  });

  it('derives the JSON Schema from zod, without what the model does not need ($schema, additionalProperties, trivial bounds), cached; zod still refuses extra keys', async () => {
    const r = new ToolRegistry([echo as AnyTool]);
    const s = r.jsonSchemaOf('echo_args');
    assert.equal(s.$schema, undefined);
    assert.equal(s.type, 'object');
    assert.deepEqual(s.required, ['text']);
    assert.equal(s.additionalProperties, undefined);
    assert.deepEqual((s.properties as Record<string, unknown>).count, { type: 'integer' });
    const extra = await r.invoke('echo_args', JSON.stringify({ text: 'a', bogus: 1 }), makeCtx(tempDir()));
    assert.equal(extra.error?.code, 'invalid_arguments');
    const zero = await r.invoke('echo_args', JSON.stringify({ text: 'a', count: 0 }), makeCtx(tempDir()));
    assert.equal(zero.error?.code, 'invalid_arguments', 'the bound left out of the schema is still enforced');
    assert.equal(r.jsonSchemaOf('echo_args'), s, 'same object on the next call');
    assert.doesNotMatch(JSON.stringify(r.jsonSchemaOf('echo_args')), /9007199254740991/);
  });

  it('lists the catalog sorted by group then name, with the 11 built-in eager core tools, list_dir and the git group', () => {
    const r = new ToolRegistry(createBuiltinTools());
    const cat = r.listCatalog();
    assert.deepEqual(
      cat.filter((c) => c.group === 'core').map((c) => c.name),
      ['ask_user', 'edit_file', 'execute_code', 'glob', 'grep', 'read_file', 'set_mode', 'shell', 'skill_view', 'view_image', 'write_file'],
    );
    assert.ok(cat.filter((c) => c.group === 'core').every((c) => c.deferred === false));
    const git = cat.filter((c) => c.group === 'git');
    assert.deepEqual(git.map((c) => [c.name, c.deferred]), [['git_commit', true], ['git_diff', true], ['git_log', true], ['git_status', true]]);
    assert.deepEqual(cat.find((c) => c.name === 'list_dir'), { name: 'list_dir', group: 'fs', permission: 'read', summary: cat.find((c) => c.name === 'list_dir')!.summary, deferred: true });
    const groups = cat.map((c) => c.group);
    assert.deepEqual(groups, [...groups].sort());
    for (const c of cat) assert.ok(c.summary.length > 5 && !c.summary.includes('\n'), c.name);
    for (const t of r.all()) assert.equal(r.jsonSchemaOf(t.name).type, 'object', t.name);
  });

  it('an unknown tool is unknown_tool and names close tools', async () => {
    const res = await call(makeCtx(ws), 'read_fil', { path: 'a' });
    assert.equal(res.error?.code, 'unknown_tool');
    assert.match(res.content, /read_file/);
    assert.match(res.content, /^error \(unknown_tool\): /);
  });

  describe('invalid arguments of every shape', () => {
    const reg = new ToolRegistry([echo as AnyTool]);
    const cases: Array<[string, string, RegExp]> = [
      ['not JSON', '{"text": "a",', /echo_args: the arguments are not valid JSON/],
      ['a JSON array', '["a"]', /must be a JSON object, got an array/],
      ['a JSON string', '"text"', /must be a JSON object, got a string/],
      ['null', 'null', /must be a JSON object, got null/],
      ['a number', '42', /must be a JSON object, got a number/],
      ['a wrong type', '{"text": 5}', /text: expected string, received number/],
      ['a missing field', '{}', /text: missing \(required string\)/],
      ['extra nesting', '{"args": {"text": "a"}}', /text: missing.*args: unexpected field/],
      ['an unknown field', '{"text": "a", "colour": 1}', /colour: unexpected field/],
      ['a nested wrong type', '{"text": "a", "opts": {"loud": "yes"}}', /opts\.loud: expected boolean, received string/],
      ['a bound', '{"text": "a", "count": 0}', /count: Too small/],
    ];
    for (const [what, raw, re] of cases) {
      it(what, async () => {
        const res = await reg.invoke('echo_args', raw, makeCtx(ws));
        assert.equal(res.ok, false);
        assert.equal(res.error?.code, 'invalid_arguments');
        assert.match(res.content, re);
        assert.match(res.content, /invalid arguments for echo_args/);
        assert.match(res.content, /expected a JSON object with: text \(string, required\)/);
      });
    }
    it('empty arguments count as {} (tools without parameters)', async () => {
      const r = new ToolRegistry([tool('noargs', async () => okResult('ran'))]);
      assert.equal((await r.invoke('noargs', '', makeCtx(ws))).content, 'ran');
      assert.equal((await r.invoke('noargs', '  ', makeCtx(ws))).content, 'ran');
    });
    it('valid arguments reach the handler parsed', async () => {
      const res = await reg.invoke('echo_args', '{"text": "hi", "count": 2}', makeCtx(ws));
      assert.deepEqual(JSON.parse(res.content), { text: 'hi', count: 2 });
    });
  });

  it('a throwing handler becomes failed with its message', async () => {
    const r = new ToolRegistry([tool('boom', async () => { throw new Error('kaput'); })]);
    const res = await r.invoke('boom', '{}', makeCtx(ws));
    assert.equal(res.error?.code, 'failed');
    assert.match(res.content, /boom failed: kaput/);
  });

  it('an aborted signal is cancelled, before the run and during a run that ignores the signal', async () => {
    let ran = 0;
    const r = new ToolRegistry([tool('hang', () => { ran++; return new Promise(() => {}); })]);
    const before = makeCtx(ws);
    before.controller.abort();
    assert.equal((await r.invoke('hang', '{}', before)).error?.code, 'cancelled');
    assert.equal(ran, 0);
    const during = makeCtx(ws);
    const p = r.invoke('hang', '{}', during);
    setTimeout(() => during.controller.abort(), 20);
    const res = await p;
    assert.equal(res.error?.code, 'cancelled');
    assert.equal(ran, 1);
  });

  describe('mode gating', () => {
    for (const mode of ['plan', 'ask'] as const) {
      it(`${mode} mode refuses write, exec and commit tools and runs read tools`, async () => {
        writeTree(ws, { 'm.txt': 'x\n' });
        const ctx = makeCtx(ws, { mode });
        for (const [name, args] of [
          ['write_file', { path: 'n.txt', content: 'y' }],
          ['edit_file', { path: 'm.txt', old_string: 'x', new_string: 'z' }],
          ['shell', { command: 'touch gated' }],
          ['execute_code', { code: 'print(1)' }],
          ['git_commit', { message: 'm' }],
        ] as const) {
          const res = await call(ctx, name, args);
          assert.equal(res.error?.code, 'mode_blocked', name);
          assert.match(res.content, new RegExp(`${name} is not available in ${mode} mode`));
        }
        assert.equal(ctx.asked.length, 0, 'a blocked call never reaches the approver');
        assert.equal((await call(ctx, 'read_file', { path: 'm.txt' })).ok, true);
      });
    }
  });
});
