/** What the host's replay tests share: a deferred MCP-like tool, and reopening a stored session as a resume does. */
import { z } from 'zod';
import type { Session } from '../../../extension/core/conversation/session';
import { defineTool, okResult, type AnyTool } from '../../../extension/core/tools/types';
import type { Harness } from '../../fixtures/agent-harness';

/** A deferred tool of an MCP server "docs"; `{"word": "pea"}` gives the title "docs: look up pea". */
export const docsLookup: AnyTool = defineTool({
  name: 'mcp__docs__lookup',
  group: 'mcp:docs',
  traits: { readOnly: true, repeat: 'scan', subagents: true, images: false },
  permission: 'read',
  summary: 'Look a word up',
  description: 'Looks a word up in the docs.',
  input: z.object({ word: z.string().optional() }),
  deferred: true,
  describeCall: (a) => (a.word ? `docs: look up ${a.word}` : 'docs: look up'),
  async run() {
    return okResult('found it');
  },
}) as AnyTool;

/**
 * Registers the suite's cleanup (the harness `current()` returns, with the Agent it reopened) and
 * returns `stored`: the session as a resume reads it back from state.db.
 */
export function reopenStored(current: () => Harness | undefined): (s: Session) => Session {
  afterEach(async () => {
    await current()?.close();
  });
  return (s) => current()!.reopen().openSession(s.id)!;
}
