// Wall-time overhead of `scv delegate claude "hi"` on a fake claude that prints a tiny turn: against
// the fake run directly, a minimal Node wrapper (bench/floor.mjs, the practical floor) and one bare
// `node -e 0`, interleaved round by round so all see the same machine. A continued turn
// (`scv delegate -c <conversation> "hi"`, which also locks and reads the conversation's record) runs
// in the same rounds. Each Node process also reports its own CPU time (bench/cpu-at-exit.cjs,
// preloaded into all of them alike).

import { join } from "node:path";
import { median, mustRun, ROOT, type Run } from "./lib.js";
import { CLAUDE_ARGS, FLOOR, REPLY, SCV, type World } from "./world.js";

type Variant = "direct" | "floor" | "scv" | "continued" | "node" | "baseline";
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
  readonly continuedAddedMs: number;
  readonly floorAddedMs: number;
  readonly scvToFloor: number;
  readonly continuedToFloor: number;
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

/** `conversation`: the handle the continued turns continue. */
function start(world: World, variant: Variant, conversation = ""): Promise<Run> {
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
    case "continued":
      return node([SCV, "delegate", "-c", conversation, "hi"]);
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
    "continued",
    "node",
    ...(world.baseline ? (["baseline"] as const) : []),
  ];
  let conversation = "";
  for (const each of variants.filter((variant) => ["scv", "baseline", "continued"].includes(variant))) {
    const check = await start(world, each, conversation);
    if (check.stdout.trim() !== REPLY)
      throw new Error(`${each} scv delegate replied ${JSON.stringify(check.stdout)}`);
    if (each === "scv") conversation = /conversation: (\S+)/.exec(check.stderr)?.[1] ?? "";
  }
  const times: Record<Variant, number[]> = {
    direct: [],
    floor: [],
    scv: [],
    continued: [],
    node: [],
    baseline: [],
  };
  const cpu: Record<NodeVariant, number[]> = { floor: [], scv: [], continued: [], node: [], baseline: [] };
  for (let round = 0; round < warmup + runs; round += 1) {
    // Rotate the order each round: none always runs right after another.
    const order = variants.map((_, i) => variants[(i + round) % variants.length] as Variant);
    for (const variant of order) {
      const run = await start(world, variant, conversation);
      if (round < warmup) continue;
      times[variant].push(run.ms);
      if (variant !== "direct") cpu[variant].push(cpuMs(run));
    }
  }
  const added = (variant: Variant) => median(times[variant].map((ms, i) => ms - (times.direct[i] as number)));
  const scvAddedMs = added("scv");
  const continuedAddedMs = added("continued");
  const floorAddedMs = added("floor");
  const nodeMs = median(times.node);
  return {
    runs,
    medianMs: {
      direct: median(times.direct),
      floor: median(times.floor),
      scv: median(times.scv),
      continued: median(times.continued),
      node: nodeMs,
    },
    medianCpuMs: {
      floor: median(cpu.floor),
      scv: median(cpu.scv),
      continued: median(cpu.continued),
      node: median(cpu.node),
    },
    scvAddedMs,
    continuedAddedMs,
    floorAddedMs,
    scvToFloor: scvAddedMs / floorAddedMs,
    continuedToFloor: continuedAddedMs / floorAddedMs,
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
