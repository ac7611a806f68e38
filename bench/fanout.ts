// Fan-out: 16 `scv delegate` turns at once on a fake claude that sleeps 1 s, against one such turn
// alone, in both ways a user can start them: one `scv delegate claude claude … "hi" --parallel 16`
// (scv's own fan-out: one process runs the 16 turns) and 16 `scv delegate claude "hi"` processes
// started together. The same 16 processes of the minimal Node wrapper show what the machine itself
// costs when 16 Node processes start together.

import { median, mustRun, type Run } from "./lib.js";
import { CLAUDE_ARGS, FLOOR, REPLY, SCV, type World } from "./world.js";

export const FAN_OUT = 16;

export interface FanOutResult {
  /** Runs of scv's pairs (one alone, then FAN_OUT together); the floor's pair runs once. */
  readonly repeats: number;
  /** Median wall time of one turn alone, and of FAN_OUT turns (until the last ends), ms. */
  readonly scvOneMs: number;
  /** FAN_OUT turns in one scv process. */
  readonly scvFanOutMs: number;
  readonly scvFanOutRatio: number;
  /** FAN_OUT scv processes started together. */
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
  const fanOut = async () => {
    const args = ["delegate", "--parallel", String(FAN_OUT), ...Array<string>(FAN_OUT).fill("claude"), "hi"];
    const run = await mustRun(process.execPath, [SCV, ...args], options);
    const replies = run.stdout.split(REPLY).length - 1;
    if (replies !== FAN_OUT) throw new Error(`scv's fan-out printed ${replies} replies, not ${FAN_OUT}`);
    return run;
  };
  const floor = () => mustRun(process.execPath, [FLOOR, "claude", ...CLAUDE_ARGS], options);
  const times = {
    scvOne: [] as number[],
    scvFanOut: [] as number[],
    scvMany: [] as number[],
    floorOne: [] as number[],
    floorMany: [] as number[],
  };
  for (let i = 0; i < repeats; i += 1) {
    times.scvOne.push(await together(1, scv));
    times.scvFanOut.push(await together(1, fanOut));
    times.scvMany.push(await together(FAN_OUT, scv));
    // The floor is context, not a target: once is enough, and keeps the run under 5 minutes.
    if (i === 0) {
      times.floorOne.push(await together(1, floor));
      times.floorMany.push(await together(FAN_OUT, floor));
    }
  }
  const result = {
    scvOneMs: median(times.scvOne),
    scvFanOutMs: median(times.scvFanOut),
    scvManyMs: median(times.scvMany),
    floorOneMs: median(times.floorOne),
    floorManyMs: median(times.floorMany),
  };
  return {
    repeats,
    ...result,
    scvFanOutRatio: result.scvFanOutMs / result.scvOneMs,
    scvRatio: result.scvManyMs / result.scvOneMs,
    floorRatio: result.floorManyMs / result.floorOneMs,
  };
}
