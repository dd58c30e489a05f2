/**
 * Fuzzy matching of workspace paths for the `@` popup: the query's characters in order,
 * case-insensitive. Matches in the file name, at word starts and in runs score higher,
 * shorter paths break ties. The host sends candidates; this ranks them as the user types.
 */

export interface FuzzyMatch {
  path: string;
  score: number;
  /** Indices of the matched characters in `path`, for highlighting. */
  positions: number[];
}

const SEPARATORS = new Set(['/', '\\', '.', '-', '_', ' ']);

export function fuzzyMatch(query: string, path: string): FuzzyMatch | null {
  if (!query) return { path, score: 0, positions: [] };
  const q = query.toLowerCase();
  const p = path.toLowerCase();
  const nameStart = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1;
  const positions: number[] = [];
  let score = 0;
  let from = 0;
  for (const ch of q) {
    const at = p.indexOf(ch, from);
    if (at < 0) return null;
    const previous = positions[positions.length - 1];
    score += 1;
    if (previous !== undefined && at === previous + 1) score += 4;
    if (at === 0 || SEPARATORS.has(p[at - 1] as string)) score += 2;
    if (at >= nameStart) score += 2;
    positions.push(at);
    from = at + 1;
  }
  if (p.slice(nameStart).startsWith(q)) score += 5;
  return { path, score: score - path.length / 100, positions };
}

/** The best `limit` matches, best first; for an empty query, the paths in the host's order. */
export function rankPaths(query: string, paths: readonly string[], limit = 12): FuzzyMatch[] {
  const matches: FuzzyMatch[] = [];
  for (const path of paths) {
    const m = fuzzyMatch(query, path);
    if (m) matches.push(m);
  }
  if (query) matches.sort((a, b) => b.score - a.score);
  return matches.slice(0, limit);
}
