/** The cost bench's headline as a picture: cumulative cost per round, Snowpea against naive, one panel per price model. */
import { PRICE_MODELS } from './cache-cost';
import type { CostRow } from './cost-bench';

/** Sums the trajectories' cumulative curves round by round (a finished trajectory keeps its total). */
function summed(rows: CostRow[], key: 'naive' | 'snowpea'): number[] {
  const n = Math.max(...rows.map((r) => r.curve[key].length));
  return Array.from({ length: n }, (_, i) => rows.reduce((a, r) => a + (r.curve[key][Math.min(i, r.curve[key].length - 1)] ?? 0), 0));
}

export function costSvg(rows: CostRow[], title: string): string {
  const W = 360;
  const H = 220;
  const pad = { l: 52, r: 12, t: 34, b: 34 };
  const panels = PRICE_MODELS.map((p, k) => {
    const rs = rows.filter((r) => r.price === p.name);
    const naive = summed(rs, 'naive');
    const snow = summed(rs, 'snowpea');
    const max = Math.max(...naive, ...snow, 1);
    const x = (i: number) => pad.l + (i / Math.max(1, naive.length - 1)) * (W - pad.l - pad.r);
    const y = (v: number) => H - pad.b - (v / max) * (H - pad.t - pad.b);
    const line = (vs: number[]) => vs.map((v, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    const ratio = snow.at(-1)! / naive.at(-1)!;
    const ox = (k % 2) * W;
    const oy = Math.floor(k / 2) * H + 30;
    return `<g transform="translate(${ox},${oy})">
  <text x="${pad.l}" y="20" font-size="11" font-weight="bold">${p.name}: Snowpea ${(ratio * 100).toFixed(0)}% of naive</text>
  <line x1="${pad.l}" y1="${H - pad.b}" x2="${W - pad.r}" y2="${H - pad.b}" stroke="#888"/>
  <line x1="${pad.l}" y1="${pad.t}" x2="${pad.l}" y2="${H - pad.b}" stroke="#888"/>
  <text x="${pad.l - 4}" y="${pad.t + 4}" font-size="10" text-anchor="end">${Math.round(max / 1000)}k</text>
  <text x="${pad.l - 4}" y="${H - pad.b}" font-size="10" text-anchor="end">0</text>
  <text x="${(W + pad.l) / 2}" y="${H - 8}" font-size="10" text-anchor="middle">round (1 to ${naive.length})</text>
  <path d="${line(naive)}" fill="none" stroke="#c0392b" stroke-width="2"/>
  <path d="${line(snow)}" fill="none" stroke="#27ae60" stroke-width="2"/>
</g>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${2 * W}" height="${2 * H + 50}" font-family="sans-serif">
<rect width="100%" height="100%" fill="#fff"/>
<text x="10" y="20" font-size="14">${title} — cumulative input cost in uncached-token units (<tspan fill="#c0392b">naive</tspan>, <tspan fill="#27ae60">Snowpea</tspan>)</text>
${panels.join('\n')}
</svg>
`;
}
