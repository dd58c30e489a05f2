/**
 * What output caps would cut from the real trajectories' tool outputs: how many outputs pass each
 * candidate cap and how many characters the cap removes (each of them is then also not re-sent in
 * the later requests that carry the output until pruning stubs it).
 */
import { allTrajectories } from './trajectories/load';

export function outputCapReport(caps = [2_000, 5_000, 10_000, 20_000]): { outputs: number; totalChars: number; rows: Array<{ cap: number; over: number; cutChars: number }> } {
  const sizes = allTrajectories().flatMap((t) => t.steps.map((s) => s.output.length));
  return {
    outputs: sizes.length,
    totalChars: sizes.reduce((a, b) => a + b, 0),
    rows: caps.map((cap) => ({ cap, over: sizes.filter((n) => n > cap).length, cutChars: sizes.reduce((a, n) => a + Math.max(0, n - cap), 0) })),
  };
}

if (require.main === module) console.log(JSON.stringify(outputCapReport(), null, 2));
