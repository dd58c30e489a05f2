import { z } from 'zod';
import type { Step } from '../test/fixtures/scripted-server';
import { defineTool, okResult, type AnyTool } from '../extension/core/tools/types';

/** Five source files of ~150 lines each, a build log, the workspace of the long session. */
export function longSessionFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let f = 0; f < 5; f++) {
    files[`src/module${f}.ts`] = Array.from({ length: 150 }, (_, i) => `export function fn${f}_${i}(x: number): number { return x * ${i} + ${f}; } // TODO check ${i % 7}`).join('\n') + '\n';
  }
  files['build.log'] = Array.from({ length: 120 }, (_, i) => `[build] step ${i}: compiling src/module${i % 5}.ts ... ok (${(i * 37) % 1000} ms)`).join('\n') + '\n';
  return files;
}

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });

/**
 * A 60-round debugging session as agents really run one: re-reading the same files,
 * re-running the same build log and searches, and test runs with big, changing output.
 */
export function longSessionStep(round: number): Step {
  if (round >= 60) return { text: 'Done: the failing case is fixed.' };
  const f = round % 5;
  const cycle: Array<Step['toolCalls']> = [
    [call('read_file', { path: `src/module${f}.ts` })],
    [call('shell', { command: 'cat build.log' })],
    [call('grep', { pattern: 'TODO check 3' })],
    [call('read_file', { path: `src/module${(f + 1) % 5}.ts` })],
    [call('shell', { command: `for i in $(seq 1 150); do echo "test ${round}.$i ... passed in $((i % 9)) ms"; done` })],
    [call('glob', { pattern: 'src/**/*.ts' })],
  ];
  return { toolCalls: cycle[round % cycle.length] };
}

/** A large fake MCP-like group: realistic schemas, so deferral has something to save. */
export function manyDeferredTools(server: string, n: number): AnyTool[] {
  return Array.from({ length: n }, (_, i) =>
    defineTool({
      name: `mcp__${server}__${['list', 'get', 'create', 'update', 'delete', 'search'][i % 6]}_${['issue', 'pull', 'repo', 'branch', 'comment', 'label', 'release', 'workflow', 'file', 'user', 'team'][i % 11]}_${i}`,
      group: `mcp:${server}`,
      traits: { readOnly: false, repeat: 'scan', subagents: true, images: true },
      permission: 'exec',
      summary: `Operation ${i} on the ${server} API`,
      description: `Calls the ${server} API operation number ${i}. Returns JSON with the fields the API documents; paginate with page and per_page. Fails with a clear error when the token lacks the scope.`,
      input: z.object({
        owner: z.string().describe('Repository owner (user or organisation)'),
        repo: z.string().describe('Repository name'),
        number: z.number().int().optional().describe('Issue or pull request number'),
        state: z.enum(['open', 'closed', 'all']).optional().describe('Filter by state'),
        labels: z.array(z.string()).optional().describe('Labels to filter or apply'),
        page: z.number().int().min(1).optional().describe('Page number, from 1'),
        per_page: z.number().int().min(1).max(100).optional().describe('Results per page, at most 100'),
      }),
      deferred: true,
      async run() {
        return okResult(`{"ok":true,"op":${i}}`);
      },
    }) as AnyTool,
  );
}

/** The deferred-tools session: three tools loaded with tool_search, then used. */
export function deferredSessionStep(round: number, tools: AnyTool[]): Step {
  const pick = [tools[3].name, tools[17].name, tools[42].name];
  const steps: Step[] = [
    { toolCalls: [call('tool_search', { query: `select:${pick[0]},${pick[1]}` })] },
    { toolCalls: [call(pick[0], { owner: 'o', repo: 'r' })] },
    { toolCalls: [call('tool_search', { query: `select:${pick[2]}` })] },
    { toolCalls: [call(pick[2], { owner: 'o', repo: 'r', state: 'open' })] },
    ...Array.from({ length: 8 }, (_, i): Step => ({ toolCalls: [call('glob', { pattern: `*.${i}` })] })),
  ];
  return steps[round] ?? { text: 'done' };
}

/** A workspace with the context a parent carries: skills, memory, root and nested instruction files. */
export function delegationFiles(): Record<string, string> {
  const para = (topic: string, n: number) => Array.from({ length: n }, (_, i) => `- ${topic} rule ${i + 1}: keep changes small, run the package's own checks, and document public APIs.`).join('\n');
  const files: Record<string, string> = {
    'AGENTS.md': `# Repository rules\n${para('root', 30)}\n`,
    '.snowpea/memory.md': Array.from({ length: 12 }, (_, i) => `- Project fact ${i + 1}: the service on port ${5000 + i} is started by make dev.`).join('\n') + '\n',
  };
  for (const pkg of ['api', 'web', 'cli', 'worker', 'shared']) files[`packages/${pkg}/AGENTS.md`] = `# ${pkg}\n${para(pkg, 25)}\n`;
  for (let i = 0; i < 15; i++) files[`.snowpea/skills/skill-${i}/SKILL.md`] = `---\nname: skill-${i}\ndescription: How to perform routine task number ${i} in this repository, step by step.\n---\nSteps for ${i}.\n`;
  return files;
}
