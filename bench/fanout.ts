// Fan-out: 16 `scv delegate` processes started at once on a fake claude that sleeps 1 s, against
// one such turn alone. The same for the minimal Node wrapper, to show what the machine itself
// costs when 16 Node processes start together.

import { median, mustRun, type Run } from "./lib.js";
import { CLAUDE_ARGS, FLOOR, REPLY, SCV, type World } from "./world.js";

export const FAN_OUT = 16;

export interface FanOutResult {
  /** Runs of scv's pair (one alone, then FAN_OUT together); the floor's pair runs once. */
  readonly repeats: number;
  /** Median wall time of one turn alone, and of FAN_OUT started together (until the last ends), ms. */
  readonly scvOneMs: number;
  readonly scvManyMs: number;
  readonly scvRatio: number;
  readonly floorOneMs: number;
  readonly floorManyMs: number;
  readonly floorRatio: number;
}

async function together(count: number, start: () => Promise<Run>): Promise<number> {
  const started = process.hrtime.bigint();
  const runs = await Promise.all(Array.from({ length: count }, start));
  for (const run of runs) {
    if (!run.stdout.includes(REPLY)) throw new Error(`a fan-out turn replied ${JSON.stringify(run.stdout)}`);
  }
  return Number(process.hrtime.bigint() - started) / 1e6;
}

export async function fanOutBench(world: World, repeats: number): Promise<FanOutResult> {
  const options = { env: world.slowEnv, cwd: world.project };
  const scv = () => mustRun(process.execPath, [SCV, "delegate", "claude", "hi"], options);
  const floor = () => mustRun(process.execPath, [FLOOR, "claude", ...CLAUDE_ARGS], options);
  const times = {
    scvOne: [] as number[],
    scvMany: [] as number[],
    floorOne: [] as number[],
    floorMany: [] as number[],
  };
  for (let i = 0; i < repeats; i += 1) {
    times.scvOne.push(await together(1, scv));
    times.scvMany.push(await together(FAN_OUT, scv));
    // The floor is context, not a target: once is enough, and keeps the run under 5 minutes.
    if (i === 0) {
      times.floorOne.push(await together(1, floor));
      times.floorMany.push(await together(FAN_OUT, floor));
    }
  }
  const result = {
    scvOneMs: median(times.scvOne),
    scvManyMs: median(times.scvMany),
    floorOneMs: median(times.floorOne),
    floorManyMs: median(times.floorMany),
  };
  return {
    repeats,
    ...result,
    scvRatio: result.scvManyMs / result.scvOneMs,
    floorRatio: result.floorManyMs / result.floorOneMs,
  };
}
