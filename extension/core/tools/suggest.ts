/** Edit distance between two short strings (names of tools, files, skills). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

/** Up to `max` candidates close to `name`: containing it, contained in it, or within a small edit distance. */
export function closeNames(name: string, candidates: Iterable<string>, max = 3): string[] {
  const needle = name.toLowerCase();
  const scored: { c: string; score: number }[] = [];
  for (const c of candidates) {
    const lc = c.toLowerCase();
    const d = editDistance(needle, lc);
    const related = lc.includes(needle) || needle.includes(lc);
    if (related || d <= Math.max(2, Math.floor(Math.max(needle.length, lc.length) / 3))) {
      scored.push({ c, score: related ? d - 100 : d });
    }
  }
  return scored
    .sort((x, y) => x.score - y.score || x.c.localeCompare(y.c))
    .slice(0, max)
    .map((s) => s.c);
}
