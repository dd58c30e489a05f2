import { z } from 'zod';
import { defineTool, errorResult, okResult } from '../types';
import { TOOL } from '../names';

const input = z.strictObject({
  question: z.string().min(1).describe('A complete question.'),
  choices: z.array(z.string().min(1)).min(2).max(10).optional().describe('Answers to offer (the user may type another).'),
});

export const askUserTool = defineTool({
  name: TOOL.ask_user,
  traits: { readOnly: true, repeat: 'plain', subagents: false, images: false },
  group: 'core',
  permission: 'interact',
  deferred: false,
  summary: 'Ask the user a question and wait for the answer.',
  description:
    'Ask the user when you cannot proceed without their decision; the turn waits for the answer. Not for what you can find out yourself.',
  input,
  describeCall: (a) => `ask: ${a.question.length > 100 ? `${a.question.slice(0, 99)}…` : a.question}`,
  // The call is itself a question to the user: no separate approval.
  approval: () => ({ skip: true }),
  async run(args, ctx) {
    if (!ctx.askUser) {
      return errorResult(
        'unavailable',
        'ask_user is not available here (a delegated task or a non-interactive run has no user to ask). Decide yourself, state the assumption you made, and carry on.',
      );
    }
    const answer = (await ctx.askUser(args.question, args.choices, ctx.signal)).trim();
    return okResult(answer ? `the user answered: ${answer}` : 'the user gave an empty answer');
  },
});
