// Wall-time overhead of `scv delegate claude "hi"` on a fake claude that prints a tiny turn: against
// the fake run directly, a minimal Node wrapper (bench/floor.mjs, the practical floor) and one bare
// `node -e 0`, interleaved round by round so all four see the same machine. Each Node process also
// reports its own CPU time (bench/cpu-at-exit.cjs, preloaded into all three alike).

import { join } from "node:path";
import { median, mustRun, ROOT, type Run } from "./lib.js";
import { CLAUDE_ARGS, FLOOR, REPLY, SCV, type World } from "./world.js";

type Variant = "direct" | "floor" | "scv" | "node" | "baseline";
type NodeVariant = Exclude<Variant, "direct">;
const CPU_AT_EXIT = join(ROOT, "bench", "cpu-at-exit.cjs");

export interface OverheadResult {
  readonly runs: number;
  /** Median wall time of each variant, ms. */
  readonly medianMs: Readonly<Record<Exclude<Variant, "baseline">, number>>;
  /** Median CPU time (user + system) of each Node process, ms. */
  readonly medianCpuMs: Readonly<Record<Exclude<NodeVariant, "baseline">, number>>;
  /** Median over rounds of (variant − direct) in the same round, ms. */
  readonly scvAddedMs: number;
  readonly floorAddedMs: number;
  readonly scvToFloor: number;
  readonly scvToNode: number;
  readonly floorToNode: number;
  /** With `--baseline`: the other build's figures, measured in the same rounds. */
  readonly baseline?: {
    readonly scv: string;
    readonly medianMs: number;
    readonly medianCpuMs: number;
    readonly addedMs: number;
    readonly toFloor: number;
  };
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
    case "baseline": {
      const baseline = world.baseline as NonNullable<World["baseline"]>;
      return mustRun(process.execPath, ["--require", CPU_AT_EXIT, baseline.scv, "delegate", "claude", "hi"], {
        env: baseline.env,
        cwd: world.project,
      });
    }
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
  const variants: Variant[] = [
    "direct",
    "floor",
    "scv",
    "node",
    ...(world.baseline ? (["baseline"] as const) : []),
  ];
  for (const each of variants.filter((variant) => variant === "scv" || variant === "baseline")) {
    const check = await start(world, each);
    if (check.stdout.trim() !== REPLY)
      throw new Error(`${each} scv delegate replied ${JSON.stringify(check.stdout)}`);
  }
  const times: Record<Variant, number[]> = { direct: [], floor: [], scv: [], node: [], baseline: [] };
  const cpu: Record<NodeVariant, number[]> = { floor: [], scv: [], node: [], baseline: [] };
  for (let round = 0; round < warmup + runs; round += 1) {
    // Rotate the order each round: none always runs right after another.
    const order = variants.map((_, i) => variants[(i + round) % variants.length] as Variant);
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
    ...(world.baseline === undefined
      ? {}
      : {
          baseline: {
            scv: world.baseline.scv,
            medianMs: median(times.baseline),
            medianCpuMs: median(cpu.baseline),
            addedMs: added("baseline"),
            toFloor: added("baseline") / floorAddedMs,
          },
        }),
  };
}
