/**
 * What output caps would cut from the real trajectories' tool outputs: how many outputs pass each
 * candidate cap and how many characters the cap removes (each of them is then also not re-sent in
 * the later requests that carry the output until pruning stubs it). Also the searches' line counts
 * against candidate match caps for grep, and the line counts of the file views against candidate
 * read_file windows.
 */
import { allTrajectories } from './trajectories/load';

const lineCount = (s: string) => s.split('\n').length;

/** A search as Snowpea's grep would run it: the replayed grep calls and shell commands that grep. */
const isSearch = (s: { tool: string; args: Record<string, unknown> }) => s.tool === 'grep' || (s.tool === 'shell' && /^\s*(grep|rg)\b/.test(String(s.args.command)));

export interface CapReport {
  outputs: number;
  totalChars: number;
  rows: Array<{ cap: number; over: number; cutChars: number }>;
  /** Searches, their largest line count, and how many lines each candidate match cap would cut. */
  grep: { searches: number; maxLines: number; rows: Array<{ cap: number; over: number; cutLines: number }> };
  /** File views (read_file calls), their largest line count, and what each candidate window would cut. */
  views: { reads: number; maxLines: number; rows: Array<{ cap: number; over: number; cutLines: number }> };
}

function lineCaps(counts: number[], caps: number[]) {
  return caps.map((cap) => ({ cap, over: counts.filter((n) => n > cap).length, cutLines: counts.reduce((a, n) => a + Math.max(0, n - cap), 0) }));
}

export function outputCapReport(caps = [2_000, 5_000, 10_000, 20_000]): CapReport {
  const steps = allTrajectories().flatMap((t) => t.steps);
  const sizes = steps.map((s) => s.output.length);
  const searches = steps.filter(isSearch).map((s) => lineCount(s.output));
  const views = steps.filter((s) => s.tool === 'read_file').map((s) => lineCount(s.output));
  return {
    outputs: sizes.length,
    totalChars: sizes.reduce((a, b) => a + b, 0),
    rows: caps.map((cap) => ({ cap, over: sizes.filter((n) => n > cap).length, cutChars: sizes.reduce((a, n) => a + Math.max(0, n - cap), 0) })),
    grep: { searches: searches.length, maxLines: Math.max(0, ...searches), rows: lineCaps(searches, [20, 50, 100]) },
    views: { reads: views.length, maxLines: Math.max(0, ...views), rows: lineCaps(views, [50, 100, 2_000]) },
  };
}

if (require.main === module) console.log(JSON.stringify(outputCapReport(), null, 2));
