/**
 * Turns published SWE-agent trajectories into replayable steps: each step is the agent's thought,
 * one Snowpea tool call that does what the recorded action did, and the recorded observation as
 * that tool's output. Two sources: SWE-agent's own demonstration and test trajectories (MIT) and
 * Multi-SWE-bench's SWE-agent runs on Java issues. Run once against checkouts:
 *
 *   npx tsx bench/trajectories/import-swe-agent.ts <SWE-agent checkout> [<multi-swe-bench/experiments checkout>]
 *
 * It writes swe-agent.json (and multi-swe-bench-java.json) beside itself, with each trajectory's
 * repository, path, commit and licence.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const PICK = [
  'tests/test_data/trajectories/gpt4__swe-bench-dev-easy_first_only__default__t-0.00__p-0.95__c-3.00__install-1/pydicom__pydicom-1458.traj',
  'tests/test_data/trajectories/gpt4__swe-agent__test-repo__default_from_url__t-0.00__p-0.95__c-3.00__install-1/swe-agent__test-repo-i1.traj',
  'tests/test_data/trajectories/gpt4__swe-agent-test-repo__default_from_url__t-0.00__p-0.95__c-3.00__install-1/6e44b9__sweagenttestrepo-1c2844.traj',
  'trajectories/demonstrations/replay__marshmallow-code__marshmallow-1867__default__t-0.20__p-0.95__c-2.00__install-1___install_from_source/marshmallow-code__marshmallow-1867.traj',
  'trajectories/demonstrations/replay__marshmallow-code__marshmallow-1867__function_calling_replace_from_source/marshmallow-code__marshmallow-1867.traj',
  'trajectories/demonstrations/human_thought__swe-bench-HumanEvalFix-python__lcb__t-0.00__p-0.95__c-4.00__install-0/humanevalfix-python-0.traj',
  'trajectories/demonstrations/ctf/crypto/BabyEncryption.traj',
  'trajectories/demonstrations/ctf/crypto/katy.traj',
  'trajectories/demonstrations/ctf/forensics/flash.traj',
  'trajectories/demonstrations/ctf/pwn/warmup.traj',
  'trajectories/demonstrations/ctf/rev/rock.traj',
  'trajectories/demonstrations/ctf/web/i_got_id_demo.traj',
];

export interface ReplayStep {
  thought: string;
  tool: string;
  args: Record<string, unknown>;
  output: string;
}

export interface Trajectory {
  name: string;
  source: { repository: string; path: string; commit: string; licence: string };
  task: string;
  steps: ReplayStep[];
}

/** The Snowpea call that does what a SWE-agent action did (its output comes from the trace, so only the shape matters). */
export function toCall(action: string, openFile: string): { tool: string; args: Record<string, unknown> } {
  const a = action.trim();
  const [cmd, ...rest] = a.split(/\s+/);
  const arg = rest.join(' ');
  const file = (s: string) => s.replace(/^["']|["']$/g, '') || openFile || 'README.md';
  switch (cmd) {
    case 'open':
    case 'goto':
    case 'scroll_down':
    case 'scroll_up':
    case 'cat':
      return { tool: 'read_file', args: { path: file(cmd === 'open' || cmd === 'cat' ? (rest[0] ?? '') : openFile) } };
    case 'search_dir':
    case 'search_file':
    case 'grep':
      return { tool: 'grep', args: { pattern: (rest[0] ?? 'x').replace(/^["']|["']$/g, '') || 'x' } };
    case 'find_file':
      return { tool: 'glob', args: { pattern: `**/${(rest[0] ?? '*').replace(/^["']|["']$/g, '')}` } };
    case 'create':
      return { tool: 'write_file', args: { path: file(rest[0] ?? ''), content: '' } };
    case 'edit': {
      const body = a.split('\n').slice(1).filter((l) => l.trim() !== 'end_of_edit').join('\n');
      return { tool: 'edit_file', args: { path: file(openFile), old_string: arg.split('\n')[0] || 'x', new_string: body || 'x' } };
    }
    case 'str_replace_editor': {
      const sub = rest[0];
      const p = file(rest[1] ?? '');
      if (sub === 'view') return { tool: 'read_file', args: { path: p } };
      if (sub === 'create') return { tool: 'write_file', args: { path: p, content: a.split('--file_text').slice(1).join('') } };
      return { tool: 'edit_file', args: { path: p, old_string: (a.match(/--old_str\s+([\s\S]*?)(--new_str|$)/)?.[1] ?? 'x').trim() || 'x', new_string: (a.match(/--new_str\s+([\s\S]*)$/)?.[1] ?? '').trim() } };
    }
    default:
      return { tool: 'shell', args: { command: a } };
  }
}

/** SWE-agent's scaffold actions that end a run; they are not work a Snowpea session would do. */
const SCAFFOLD_ACTIONS = /^(submit|exit_\w+)\b/;

type RawTraj = {
  trajectory: Array<{ action: string; observation: string; thought?: string; state?: string }>;
  history?: Array<{ role: string; content: unknown; is_demo?: boolean }>;
};

/**
 * What the user asked: the first user message that is not a demonstration, up to SWE-agent's own
 * "INSTRUCTIONS:" block (which documents SWE-agent's interface, as Snowpea's system prompt documents
 * its tools). Earlier imports took the first user message whole, which for two runs was the
 * demonstration of another issue.
 */
export function taskOf(history: RawTraj['history']): string {
  const first = history?.find((m) => m.role === 'user' && !m.is_demo && typeof m.content === 'string');
  if (!first) return 'Solve the task.';
  const text = first.content as string;
  const cut = text.indexOf('\nINSTRUCTIONS:');
  return (cut > 0 ? text.slice(0, cut) : text).trim().slice(0, 4000);
}

export function toTrajectory(raw: RawTraj, name: string, source: Trajectory['source']): Trajectory {
  let open = '';
  const steps: ReplayStep[] = [];
  for (const s of raw.trajectory) {
    try {
      open = (JSON.parse(s.state ?? '{}') as { open_file?: string }).open_file?.replace(/^\/[^/]+\//, '') ?? open;
    } catch {
      /* state not JSON */
    }
    if (open === 'n/a') open = '';
    if (SCAFFOLD_ACTIONS.test(s.action.trim())) continue;
    const call = toCall(s.action, open);
    steps.push({ thought: (s.thought ?? '').slice(0, 4000), ...call, output: s.observation ?? '' });
  }
  return { name, source, task: taskOf(raw.history), steps };
}

/**
 * Multi-SWE-bench's published SWE-agent runs on Java issues (github.com/multi-swe-bench/experiments,
 * licence ISC as its package.json declares): from the gpt-4o-2024-05-13 run, every 7th trajectory
 * in name order (13 of 89). The rule was fixed before any of them was measured.
 */
const JAVA_RUN = 'evaluation/java/verified/20240825_SWE-agent_gpt-4o-2024-05-13/trajs/';

function importFrom(repo: string, repository: string, licence: string, paths: string[]): Trajectory[] {
  const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const commit = git('rev-parse', 'HEAD').trim();
  return paths.map((p) => toTrajectory(JSON.parse(git('show', `HEAD:${p}`)) as RawTraj, path.basename(p, '.traj'), { repository, path: p, commit, licence }));
}

function write(file: string, out: Trajectory[]): void {
  fs.writeFileSync(path.join(__dirname, file), JSON.stringify(out, null, 1) + '\n');
  console.log(`wrote ${out.length} trajectories, ${out.reduce((n, t) => n + t.steps.length, 0)} steps, to ${file}`);
}

function main(): void {
  const [sweAgent, multi] = process.argv.slice(2);
  if (!sweAgent) throw new Error('usage: import-swe-agent.ts <SWE-agent checkout> [<multi-swe-bench/experiments checkout>]');
  write('swe-agent.json', importFrom(sweAgent, 'github.com/SWE-agent/SWE-agent', 'MIT', PICK));
  if (multi) {
    const all = execFileSync('git', ['-C', multi, 'ls-tree', '--name-only', 'HEAD', JAVA_RUN], { encoding: 'utf8' }).split('\n').filter((f) => f.endsWith('.traj')).sort();
    write('multi-swe-bench-java.json', importFrom(multi, 'github.com/multi-swe-bench/experiments', 'ISC', all.filter((_, i) => i % 7 === 0)));
  }
}

if (require.main === module) main();
