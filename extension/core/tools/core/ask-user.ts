import { z } from 'zod';
import { defineTool, errorResult, okResult } from '../types';
import { TOOL } from '../names';

const input = z.strictObject({
  question: z.string().min(1).describe('The question, complete and answerable on its own.'),
  choices: z.array(z.string().min(1)).min(2).max(10).optional().describe('Answers to pick from (the user may still type another).'),
});

export const askUserTool = defineTool({
  name: TOOL.ask_user,
  traits: { readOnly: true, repeat: 'plain', subagents: false, images: false },
  group: 'core',
  permission: 'interact',
  deferred: false,
  summary: 'Ask the user a question and wait for the answer.',
  description:
    'Ask the user a question when you cannot proceed without their decision (ambiguous request, a choice between approaches). ' +
    'The turn pauses until they answer. Do not use it for things you can find out yourself.',
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
