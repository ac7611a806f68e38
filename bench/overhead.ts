// Wall-time overhead of `scv delegate claude "hi"` on a fake claude that prints a tiny turn: against
// the fake run directly, a minimal Node wrapper (bench/floor.mjs, the practical floor) and one bare
// `node -e 0`, interleaved round by round so all see the same machine. A continued turn
// (`scv delegate -c <conversation> "hi"`, which also locks and reads the conversation's record) runs
// in the same rounds, and so do both turns of every other build given with `--baseline`. Each Node
// process also reports its own CPU time (bench/cpu-at-exit.cjs, preloaded into all of them alike).
// `scv --version` runs beside `node -e 0` in the same rounds: scv's start-up with no command's work.

import { join } from "node:path";
import { median, mustRun, ROOT, type Run } from "./lib.js";
import { type Build, CLAUDE_ARGS, FLOOR, REPLY, type World } from "./world.js";

const CPU_AT_EXIT = join(ROOT, "bench", "cpu-at-exit.cjs");

/** One command measured in every round. */
type Subject =
  | { readonly kind: "direct" | "floor" | "node" }
  | { readonly kind: "first" | "continued" | "version"; readonly build: Build };

/** What one build's two turns cost. */
export interface BuildFigures {
  /** Its `scv.js`. */
  readonly scv: string;
  readonly first: TurnFigures;
  readonly continued: TurnFigures;
  /** `scv --version`, against `node -e 0` (wall and CPU medians over rounds). */
  readonly version: { readonly medianMs: number; readonly medianCpuMs: number };
}

export interface TurnFigures {
  readonly medianMs: number;
  readonly medianCpuMs: number;
  /** Median over rounds of (this turn − the agent run directly) in the same round, ms. */
  readonly addedMs: number;
  /** addedMs / the floor's. */
  readonly toFloor: number;
}

export interface OverheadResult {
  readonly runs: number;
  readonly direct: { readonly medianMs: number };
  readonly floor: { readonly medianMs: number; readonly medianCpuMs: number; readonly addedMs: number };
  readonly node: { readonly medianMs: number; readonly medianCpuMs: number };
  /** This build (dist/), then each `--baseline` build in the order given. */
  readonly builds: readonly BuildFigures[];
}

/** `conversation`: the handle the build's continued turns continue. */
function start(world: World, subject: Subject, conversations: ReadonlyMap<Build, string>): Promise<Run> {
  const options = { env: world.env, cwd: world.project };
  const node = (args: readonly string[], env = world.env) =>
    mustRun(process.execPath, ["--require", CPU_AT_EXIT, ...args], { env, cwd: world.project });
  switch (subject.kind) {
    case "direct":
      return mustRun(world.agent, CLAUDE_ARGS, options);
    case "floor":
      return node([FLOOR, world.agent, ...CLAUDE_ARGS]);
    case "node":
      return node(["-e", "0"]);
    case "first":
      return node([subject.build.scv, "delegate", "claude", "hi"], subject.build.env);
    case "version":
      return node([subject.build.scv, "--version"], subject.build.env);
    case "continued": {
      const handle = conversations.get(subject.build) ?? "";
      return node([subject.build.scv, "delegate", "-c", handle, "hi"], subject.build.env);
    }
  }
}

function cpuMs(run: Run): number {
  const match = /^bench-cpu-ms ([\d.]+)$/m.exec(run.stderr);
  if (match === null) throw new Error(`no CPU time reported:\n${run.stderr}`);
  return Number(match[1]);
}

export async function overheadBench(world: World, runs: number, warmup: number): Promise<OverheadResult> {
  const subjects: Subject[] = [
    { kind: "direct" },
    { kind: "floor" },
    { kind: "node" },
    ...world.builds.flatMap((build) => [
      { kind: "first", build } as const,
      { kind: "continued", build } as const,
      { kind: "version", build } as const,
    ]),
  ];
  // A first turn of each build, checked, starts the conversation its continued turns continue.
  const conversations = new Map<Build, string>();
  for (const build of world.builds) {
    const check = await start(world, { kind: "first", build }, conversations);
    if (check.stdout.trim() !== REPLY)
      throw new Error(`${build.scv} delegate replied ${JSON.stringify(check.stdout)}`);
    conversations.set(build, /conversation: (\S+)/.exec(check.stderr)?.[1] ?? "");
  }
  const times = new Map<Subject, number[]>(subjects.map((subject) => [subject, []]));
  const cpu = new Map<Subject, number[]>(subjects.map((subject) => [subject, []]));
  for (let round = 0; round < warmup + runs; round += 1) {
    // Rotate the order each round: none always runs right after another.
    const order = subjects.map((_, i) => subjects[(i + round) % subjects.length] as Subject);
    for (const subject of order) {
      const run = await start(world, subject, conversations);
      if (round < warmup) continue;
      times.get(subject)?.push(run.ms);
      if (subject.kind !== "direct") cpu.get(subject)?.push(cpuMs(run));
    }
  }
  const [direct, floor, node] = subjects as [Subject, Subject, Subject];
  const timesOf = (subject: Subject) => times.get(subject) ?? [];
  const directTimes = timesOf(direct);
  const added = (subject: Subject) =>
    median(timesOf(subject).map((ms, i) => ms - (directTimes[i] as number)));
  const floorAddedMs = added(floor);
  const figures = (subject: Subject): TurnFigures => ({
    medianMs: median(timesOf(subject)),
    medianCpuMs: median(cpu.get(subject) ?? []),
    addedMs: added(subject),
    toFloor: added(subject) / floorAddedMs,
  });
  return {
    runs,
    direct: { medianMs: median(directTimes) },
    floor: {
      medianMs: median(timesOf(floor)),
      medianCpuMs: median(cpu.get(floor) ?? []),
      addedMs: floorAddedMs,
    },
    node: { medianMs: median(timesOf(node)), medianCpuMs: median(cpu.get(node) ?? []) },
    builds: world.builds.map((build, i) => ({
      scv: build.scv,
      first: figures(subjects[3 + 3 * i] as Subject),
      continued: figures(subjects[4 + 3 * i] as Subject),
      version: {
        medianMs: median(timesOf(subjects[5 + 3 * i] as Subject)),
        medianCpuMs: median(cpu.get(subjects[5 + 3 * i] as Subject) ?? []),
      },
    })),
  };
}
