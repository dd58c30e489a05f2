import { z } from 'zod';
import { roleNames } from '../roles';
import { defineTool, errorResult, okResult, type AnyTool, type ToolContext } from '../types';
import { TOOL } from '../names';

export interface ChildOutcome {
  text: string;
  reason: string;
  rounds: number;
  /** Tool use of the child, e.g. {read_file: 3, grep: 2}. */
  toolCounts: Record<string, number>;
  childSessionId: string;
}

export interface DelegateHost {
  runChild(parentSessionId: string, req: { task: string; agent: string; maxRounds: number }, ctx: ToolContext): Promise<ChildOutcome>;
  defaultMaxRounds(): number;
  /** Custom agents' names (the workspace's and the user's agent files), besides general, explore and reviewer. */
  customAgents?(): string[];
}

/** `[subagent explore: 4 rounds; read_file×3, grep×1]` */
export function childSummary(agent: string, o: ChildOutcome): string {
  const tools = Object.entries(o.toolCounts)
    .sort(([, a], [, b]) => b - a)
    .map(([n, c]) => `${n}×${c}`)
    .join(', ');
  const end = o.reason === 'done' ? '' : `; ended: ${o.reason}`;
  return `[subagent ${agent}: ${o.rounds} round${o.rounds === 1 ? '' : 's'}${tools ? `; ${tools}` : '; no tools'}${end}]`;
}

export function createDelegateTaskTool(host: DelegateHost): AnyTool {
  const input = z.object({
    task: z.string().min(1).describe('Complete brief: the goal, what is known, what to return.'),
    agent: z.string().min(1).optional().describe('general (all tools), explore or reviewer (read-only), or one under Agents; default general.'),
    max_rounds: z.number().int().min(1).max(200).optional().describe('Tool rounds it may use (default 20).'),
  });
  return defineTool({
    name: TOOL.delegate_task,
    traits: { readOnly: true, repeat: 'plain', subagents: false, images: false },
    group: 'core',
    permission: 'agent',
    deferred: false,
    summary: 'Run a subagent on a self-contained task and return its answer',
    description:
      'Run a subagent on a self-contained task (it starts with an empty conversation) and get its final answer. For focused exploration, review or independent subtasks.',
    input,
    describeCall: (a) => `delegate to ${a.agent ?? 'general'}: ${a.task.slice(0, 60)}`,
    async run(args, ctx) {
      if (ctx.session.isSubagent) return errorResult('policy_blocked', 'a subagent cannot delegate further; do the task yourself.');
      const known = [...roleNames(), ...(host.customAgents?.() ?? [])];
      const asked = args.agent ?? 'general';
      const agent = known.find((n) => n === asked) ?? known.find((n) => n.toLowerCase() === asked.toLowerCase());
      if (!agent) return errorResult('invalid_arguments', `there is no agent named ${JSON.stringify(asked)}; agents: ${known.join(', ')}.`);
      const maxRounds = args.max_rounds ?? host.defaultMaxRounds();
      const outcome = await host.runChild(ctx.session.id, { task: args.task, agent, maxRounds }, ctx);
      if (outcome.reason === 'cancelled') return errorResult('cancelled', `the subagent was stopped ${childSummary(agent, outcome)}`);
      const body = outcome.text.trim() || '(the subagent gave no answer)';
      return okResult(`${body}\n${childSummary(agent, outcome)}`);
    },
  });
}
