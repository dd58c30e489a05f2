/**
 * The problems an edit introduced (tools.diagnosticsAfterEdit): the host reports a file's diagnostics
 * before and after a write, this module keeps the new ones and words them for the tool result.
 *
 * "New" survives line shifts: problems are compared as a multiset keyed by (severity, source, code,
 * message), never by position. When the edit adds another copy of a problem the file already had,
 * the copies closest to the old ones' lines count as the old ones and the rest as new.
 */

export type ProblemSeverity = 'error' | 'warning' | 'information' | 'hint';

export interface Problem {
  /** 1-based line of the problem's start. */
  line: number;
  severity: ProblemSeverity;
  /** Who reported it ("ts", "json", "eslint"); absent when the provider gives none. */
  source?: string;
  code?: string;
  message: string;
}

export type ProblemsMode = 'errors' | 'errors+warnings' | 'off';

/** A file's diagnostics around one write, from the host; dispose it whether or not the write succeeded. */
export interface ProblemWatch {
  /** The file's problems before the write. */
  readonly before: Problem[];
  /** Waits (bounded, cancelled by the signal given when watching began) for the language services, then returns the problems. */
  after(): Promise<Problem[]>;
  dispose(): void;
}

/** Most problems listed in one tool result; the rest are counted. */
export const MAX_PROBLEM_LINES = 20;
const MAX_MESSAGE_CHARS = 300;

const key = (p: Problem) => JSON.stringify([p.severity, p.source ?? '', p.code ?? '', p.message]);

function shown(p: Problem, mode: ProblemsMode): boolean {
  return p.severity === 'error' || (mode === 'errors+warnings' && p.severity === 'warning');
}

/** The problems in `after` that `before` did not have, ordered by line; only those the mode reports. */
export function introducedProblems(before: Problem[], after: Problem[], mode: ProblemsMode): Problem[] {
  if (mode === 'off') return [];
  const old = new Map<string, number[]>();
  for (const p of before) old.set(key(p), [...(old.get(key(p)) ?? []), p.line]);
  const out: Problem[] = [];
  const groups = new Map<string, Problem[]>();
  for (const p of after.filter((q) => shown(q, mode))) groups.set(key(p), [...(groups.get(key(p)) ?? []), p]);
  for (const [k, now] of groups) {
    const lines = old.get(k) ?? [];
    if (now.length <= lines.length) continue;
    // Each old copy claims the nearest unclaimed new one; what nobody claims is new.
    const left = [...now];
    for (const line of lines) {
      let best = 0;
      for (let i = 1; i < left.length; i++) if (Math.abs(left[i].line - line) < Math.abs(left[best].line - line)) best = i;
      left.splice(best, 1);
    }
    out.push(...left);
  }
  return out.sort((a, b) => a.line - b.line);
}

function oneLine(message: string): string {
  const flat = message.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_MESSAGE_CHARS ? `${flat.slice(0, MAX_MESSAGE_CHARS - 1)}…` : flat;
}

/** One line per problem: "line 12: error [ts 2304] Cannot find name 'x'." */
export function formatProblem(p: Problem): string {
  const from = [p.source, p.code].filter(Boolean).join(' ');
  return `line ${p.line}: ${p.severity}${from ? ` [${from}]` : ''} ${oneLine(p.message)}`;
}

/** The text appended to write_file/edit_file's result: '' when the edit introduced nothing the mode reports. */
export function formatIntroduced(display: string, problems: Problem[]): string {
  if (problems.length === 0) return '';
  const listed = problems.slice(0, MAX_PROBLEM_LINES).map(formatProblem);
  const rest = problems.length - listed.length;
  const more = rest > 0 ? [`[… ${rest} more not shown]`] : [];
  const what = problems.length === 1 ? 'a problem' : `${problems.length} problems`;
  return `\n\nThis edit introduced ${what} in ${display} (VS Code diagnostics):\n${[...listed, ...more].join('\n')}`;
}
