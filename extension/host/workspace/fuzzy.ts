/** Pure (no `vscode`): ranks workspace paths for the composer's `@` popup. */

/** Subsequence match score: consecutive and basename hits rank higher; -1 when `q` is not a subsequence. */
export function fuzzyScore(pathText: string, q: string): number {
  if (!q) return 0;
  const p = pathText.toLowerCase();
  const base = p.slice(p.lastIndexOf('/') + 1);
  const stem = base.replace(/\..*$/, '');
  let score = stem === q ? 140 : base.startsWith(q) ? 120 : base.includes(q) ? 100 : p.includes(q) ? 50 : 0;
  let i = 0;
  let run = 0;
  for (const ch of p) {
    if (i < q.length && ch === q[i]) {
      i++;
      run++;
      score += run;
    } else run = 0;
  }
  return i === q.length ? score - p.length / 100 : -1;
}
