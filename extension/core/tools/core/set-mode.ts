import { z } from 'zod';
import { sessionModes } from '../../conversation/events';
import { READ_ONLY_MODES } from '../modes';
import { defineTool, errorResult, okResult, type Mode } from '../types';
import { TOOL } from '../names';

const input = z.strictObject({
  mode: z.enum(sessionModes).describe('plan and ask are read-only.'),
});

const MEANING: Record<Mode, string> = {
  code: 'every tool is available',
  plan: 'read-only: explore and write a plan; writes, commands and commits are refused',
  ask: 'read-only: answer questions; writes, commands and commits are refused',
};

export const setModeTool = defineTool({
  name: TOOL.set_mode,
  traits: { readOnly: true, repeat: 'plain', subagents: true, images: false },
  group: 'core',
  permission: 'read',
  deferred: false,
  summary: 'Switch the session mode (code, plan, ask).',
  description:
    'Switch the session mode: code (all tools), plan (investigate, then propose a plan) or ask (answer questions); plan and ask refuse writes, commands and commits. Leaving them asks the user.',
  input,
  describeCall: (a) => `mode → ${a.mode}`,
  // Entering a read-only mode only takes power away; leaving one gives writes and commands back, so the user decides.
  approval: (a, ctx) =>
    READ_ONLY_MODES.has(ctx.session.mode) && !READ_ONLY_MODES.has(a.mode)
      ? { summary: `switch from ${ctx.session.mode} mode to ${a.mode} mode (writes and commands become available)`, ask: true }
      : { summary: `switch to ${a.mode} mode` },
  async run(args, ctx) {
    if (!ctx.setMode) return errorResult('unavailable', 'the mode cannot be changed in this session; carry on in the current mode.');
    if (ctx.session.mode === args.mode) return okResult(`already in ${args.mode} mode (${MEANING[args.mode]})`);
    await ctx.setMode(args.mode);
    return okResult(`mode is now ${args.mode}: ${MEANING[args.mode]}`);
  },
});
