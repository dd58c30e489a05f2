/** The real trajectories the bench replays, by set; `import-swe-agent.ts` writes the files. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Trajectory } from './import-swe-agent';

export interface TrajectorySet {
  name: string;
  trajectories: Trajectory[];
}

const SETS: Array<[file: string, name: string]> = [
  ['swe-agent.json', 'SWE-agent demonstrations and tests'],
  ['multi-swe-bench-java.json', 'Multi-SWE-bench Java runs (gpt-4o)'],
];

export function trajectorySets(): TrajectorySet[] {
  return SETS.map(([file, name]) => ({ name, trajectories: JSON.parse(fs.readFileSync(path.join(__dirname, file), 'utf8')) as Trajectory[] }));
}

export function allTrajectories(): Trajectory[] {
  return trajectorySets().flatMap((s) => s.trajectories);
}
