import { z } from 'zod';
import { defineTool, errorResult, okResult } from '../types';
import { MEMORY_CAP, memoryDisplay, memoryFile, readEntries, render, writeEntries, type MemoryScope } from './memory-store';
import { TOOL } from '../names';

const input = z.object({
  action: z.enum(['add', 'replace', 'remove', 'read']).describe('add an entry, replace or remove the entry containing old_text, or read the store'),
  scope: z.enum(['workspace', 'user']).optional().describe('workspace (.snowpea/memory.md, default) or user (~/.snowpea/memory.md, all projects)'),
  text: z.string().min(1).max(500).optional().describe('The entry to add, or the replacement'),
  old_text: z.string().min(1).optional().describe('Text identifying the one entry to replace or remove'),
});

type Args = z.infer<typeof input>;

function findOne(entries: string[], needle: string): number | string {
  const hits = entries.map((e, i) => (e.includes(needle) ? i : -1)).filter((i) => i >= 0);
  if (hits.length === 1) return hits[0];
  return hits.length ? `${hits.length} entries contain ${JSON.stringify(needle)}; use a longer old_text` : `no entry contains ${JSON.stringify(needle)}`;
}

/** One handler per action: a table, not a switch. */
const actions: Record<Args['action'], (entries: string[], a: Args) => string[] | string> = {
  read: (entries) => entries,
  add: (entries, a) => (a.text ? [...entries, a.text] : 'add needs text'),
  replace: (entries, a) => {
    if (!a.text || !a.old_text) return 'replace needs old_text and text';
    const i = findOne(entries, a.old_text);
    return typeof i === 'string' ? i : entries.map((e, j) => (j === i ? a.text! : e));
  },
  remove: (entries, a) => {
    if (!a.old_text) return 'remove needs old_text';
    const i = findOne(entries, a.old_text);
    return typeof i === 'string' ? i : entries.filter((_, j) => j !== i);
  },
};

export const memoryTool = defineTool({
  name: TOOL.memory,
  traits: { readOnly: false, repeat: 'plain', subagents: true, images: false },
  group: 'memory',
  permission: 'write',
  deferred: true,
  summary: 'Read and update the workspace and user memory files',
  description:
    'Durable notes that reach every later session through the system prompt: user preferences and project facts. Actions: add, replace, remove (by old_text), read. Each store holds at most 2000 characters.',
  input,
  describeCall: (a) => `memory ${a.action} (${a.scope ?? 'workspace'})`,
  approval: (a, ctx) => (a.action === 'read' ? { skip: true } : { summary: `${a.action} ${memoryDisplay(a.scope ?? 'workspace')}: ${a.text ?? a.old_text ?? ''}`, paths: [{ path: memoryFile(a.scope ?? 'workspace', ctx.workspaceRoot), write: true }] }),
  async run(a, ctx) {
    const scope: MemoryScope = a.scope ?? 'workspace';
    const file = memoryFile(scope, ctx.workspaceRoot);
    const entries = readEntries(file);
    const next = actions[a.action](entries, a);
    if (typeof next === 'string') return errorResult(next.startsWith('no entry') ? 'not_found' : 'invalid_arguments', `${next} in ${memoryDisplay(scope)}`);
    if (a.action === 'read') return okResult(entries.length ? render(entries).trimEnd() : `${memoryDisplay(scope)} is empty`);
    const size = render(next).length;
    if (size > MEMORY_CAP) {
      return errorResult('too_large', `${memoryDisplay(scope)} is full (${size} of ${MEMORY_CAP} chars after this change); replace or remove entries first`);
    }
    writeEntries(file, next);
    return okResult(`${a.action} done; ${memoryDisplay(scope)} holds ${next.length} entr${next.length === 1 ? 'y' : 'ies'} (${size}/${MEMORY_CAP} chars)`, { writtenPaths: [file] });
  },
});
