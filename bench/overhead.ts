// Wall-time overhead of `scv delegate claude "hi"` on a fake claude that prints a tiny turn: against
// the fake run directly, a minimal Node wrapper (bench/floor.mjs, the practical floor) and one bare
// `node -e 0`, interleaved round by round so all four see the same machine. Each Node process also
// reports its own CPU time (bench/cpu-at-exit.cjs, preloaded into all three alike).

import { join } from "node:path";
import { median, mustRun, ROOT, type Run } from "./lib.js";
import { CLAUDE_ARGS, FLOOR, REPLY, SCV, type World } from "./world.js";

type Variant = "direct" | "floor" | "scv" | "node";
type NodeVariant = Exclude<Variant, "direct">;
const VARIANTS: readonly Variant[] = ["direct", "floor", "scv", "node"];
const CPU_AT_EXIT = join(ROOT, "bench", "cpu-at-exit.cjs");

export interface OverheadResult {
  readonly runs: number;
  /** Median wall time of each variant, ms. */
  readonly medianMs: Readonly<Record<Variant, number>>;
  /** Median CPU time (user + system) of each Node process, ms. */
  readonly medianCpuMs: Readonly<Record<NodeVariant, number>>;
  /** Median over rounds of (variant − direct) in the same round, ms. */
  readonly scvAddedMs: number;
  readonly floorAddedMs: number;
  readonly scvToFloor: number;
  readonly scvToNode: number;
  readonly floorToNode: number;
}

function start(world: World, variant: Variant): Promise<Run> {
  const options = { env: world.env, cwd: world.project };
  const node = (args: readonly string[]) =>
    mustRun(process.execPath, ["--require", CPU_AT_EXIT, ...args], options);
  switch (variant) {
    case "direct":
      return mustRun(world.agent, CLAUDE_ARGS, options);
    case "floor":
      return node([FLOOR, world.agent, ...CLAUDE_ARGS]);
    case "scv":
      return node([SCV, "delegate", "claude", "hi"]);
    case "node":
      return node(["-e", "0"]);
  }
}

function cpuMs(run: Run): number {
  const match = /^bench-cpu-ms ([\d.]+)$/m.exec(run.stderr);
  if (match === null) throw new Error(`no CPU time reported:\n${run.stderr}`);
  return Number(match[1]);
}

export async function overheadBench(world: World, runs: number, warmup: number): Promise<OverheadResult> {
  const check = await start(world, "scv");
  if (check.stdout.trim() !== REPLY) throw new Error(`scv delegate replied ${JSON.stringify(check.stdout)}`);
  const times: Record<Variant, number[]> = { direct: [], floor: [], scv: [], node: [] };
  const cpu: Record<NodeVariant, number[]> = { floor: [], scv: [], node: [] };
  for (let round = 0; round < warmup + runs; round += 1) {
    // Rotate the order each round: none always runs right after another.
    const order = VARIANTS.map((_, i) => VARIANTS[(i + round) % VARIANTS.length] as Variant);
    for (const variant of order) {
      const run = await start(world, variant);
      if (round < warmup) continue;
      times[variant].push(run.ms);
      if (variant !== "direct") cpu[variant].push(cpuMs(run));
    }
  }
  const added = (variant: Variant) => median(times[variant].map((ms, i) => ms - (times.direct[i] as number)));
  const scvAddedMs = added("scv");
  const floorAddedMs = added("floor");
  const nodeMs = median(times.node);
  return {
    runs,
    medianMs: {
      direct: median(times.direct),
      floor: median(times.floor),
      scv: median(times.scv),
      node: nodeMs,
    },
    medianCpuMs: { floor: median(cpu.floor), scv: median(cpu.scv), node: median(cpu.node) },
    scvAddedMs,
    floorAddedMs,
    scvToFloor: scvAddedMs / floorAddedMs,
    scvToNode: scvAddedMs / nodeMs,
    floorToNode: floorAddedMs / nodeMs,
  };
}
