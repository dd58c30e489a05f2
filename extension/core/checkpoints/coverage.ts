/**
 * What a checkpoint holds, decided by Snowpea rather than by the repository: every file in the
 * work tree except Snowpea's own excludes (dependency folders, build output, caches), nested
 * repositories and files over the per-file size limit. The repository's .gitignore is only a
 * fallback, used when the workspace with every file would pass checkpoints.maxWorkspaceMB; a
 * checkpoint says which rules it was taken under (in its commit message), so a restore can tell
 * a file the checkpoint could not hold from one created since.
 */

/**
 * Folders that are generated, never the user's work: left out of every checkpoint (gitignore
 * syntax, matched at any depth). A repository naming its source folder `build/` leaves it out too.
 */
export const SNOWPEA_EXCLUDES: readonly string[] = [
  'node_modules/',
  'bower_components/',
  '.venv/',
  '__pycache__/',
  '.tox/',
  '.nox/',
  '.mypy_cache/',
  '.pytest_cache/',
  '.ruff_cache/',
  '.gradle/',
  '.next/',
  '.nuxt/',
  '.svelte-kit/',
  '.turbo/',
  '.parcel-cache/',
  '.terraform/',
  '.dart_tool/',
  'dist/',
  'build/',
  'out/',
  'target/',
  'coverage/',
  '*.pyc',
];

/**
 * `all`: every file but Snowpea's excludes. `gitignore`: also what the repository's .gitignore
 * files exclude (the fallback for a workspace too large otherwise, and what checkpoints made
 * before coverage was Snowpea's held).
 */
export type CoverageMode = 'all' | 'gitignore';

/** The rules one checkpoint was taken under, written in its commit message. */
export interface Coverage {
  mode: CoverageMode;
  /** Snowpea's excludes then (gitignore syntax). */
  excludes: readonly string[];
  /** Files that were in the work tree but over the per-file size limit. */
  notHeld: readonly string[];
  /** More files were over the limit than the message names: none of the unnamed can be told apart. */
  notHeldTruncated: boolean;
  /** Nested repositories in the work tree then (never held: each has its own git). */
  nested: readonly string[];
  /** When the checkpoint began to look at the files (ms since the epoch); absent in older ones (their commit time, in seconds, stands in). */
  taken?: number;
}

/** Most over-limit files a checkpoint names. */
const MAX_NAMED = 500;

const MODE = 'Snowpea-Coverage';
const EXCLUDE = 'Snowpea-Exclude';
const NOT_HELD = 'Snowpea-Not-Held';
const MORE = 'Snowpea-Not-Held-More';
const NESTED = 'Snowpea-Nested';
const TAKEN = 'Snowpea-Taken-Ms';

/** The commit message of a checkpoint: its title, then one trailer per rule (paths JSON-quoted, so any name fits on a line). */
export function coverageMessage(title: string, c: Omit<Coverage, 'notHeldTruncated' | 'nested'> & { nested?: readonly string[] }): string {
  const named = c.notHeld.slice(0, MAX_NAMED);
  return [
    title,
    '',
    `${MODE}: ${c.mode}`,
    ...c.excludes.map((e) => `${EXCLUDE}: ${JSON.stringify(e)}`),
    ...named.map((p) => `${NOT_HELD}: ${JSON.stringify(p)}`),
    ...(c.notHeld.length > named.length ? [`${MORE}: ${c.notHeld.length - named.length}`] : []),
    ...(c.nested ?? []).slice(0, MAX_NAMED).map((p) => `${NESTED}: ${JSON.stringify(p)}`),
    ...(c.taken === undefined ? [] : [`${TAKEN}: ${Math.floor(c.taken)}`]),
  ].join('\n') + '\n';
}

/** The rules a checkpoint's message states; a message without them (an older checkpoint) was taken under the .gitignore. */
export function parseCoverage(message: string): Coverage {
  const c: Coverage & { excludes: string[]; notHeld: string[]; nested: string[] } = { mode: 'gitignore', excludes: [], notHeld: [], notHeldTruncated: false, nested: [] };
  // An older checkpoint states no time: its commit's (whole seconds).
  const committed = /^committer .* (\d+) [+-]\d{4}$/m.exec(message)?.[1];
  if (committed) c.taken = Number(committed) * 1000;
  for (const line of message.split('\n')) {
    const m = /^(Snowpea-[A-Za-z-]+): (.*)$/.exec(line);
    if (!m) continue;
    if (m[1] === MODE && (m[2] === 'all' || m[2] === 'gitignore')) c.mode = m[2];
    else if (m[1] === EXCLUDE) c.excludes.push(unquote(m[2]));
    else if (m[1] === NOT_HELD) c.notHeld.push(unquote(m[2]));
    else if (m[1] === MORE) c.notHeldTruncated = true;
    else if (m[1] === NESTED) c.nested.push(unquote(m[2]));
    else if (m[1] === TAKEN && /^\d+$/.test(m[2])) c.taken = Number(m[2]);
  }
  return c;
}

function unquote(s: string): string {
  try {
    const v: unknown = JSON.parse(s);
    return typeof v === 'string' ? v : s;
  } catch {
    return s;
  }
}

/**
 * Pathspecs that leave Snowpea's excludes out of `git add --force` (which otherwise takes every
 * file): what lies in each folder pattern at any depth (a file of that name stays), and each file glob.
 */
export function excludePathspecs(excludes: readonly string[]): string[] {
  return excludes.map((e) => (e.endsWith('/') ? `:(exclude,glob)**/${e}**` : `:(exclude,glob)**/${e}`));
}
