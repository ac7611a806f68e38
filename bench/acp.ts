// A warm continued ACP turn beside a per-turn process turn of the same CLI, interleaved round by round:
// `scv delegate claude "hi"` and `scv delegate -c <conversation> "hi"` on the fast fake claude (a
// process that prints a capture), and `scv delegate -c <acp conversation> "hi"` on a conversation
// begun with `--transport acp`, whose session host keeps the fake ACP adapter (`claude-agent-acp`:
// test/fake-agents/acp-agent.mjs, which answers at once) running between turns. The agents cost next
// to nothing, so this is scv's own floor for each kind of turn; docs/benchmarks.md has the real CLIs.

import { join } from "node:path";
import { median, mustRun, ROOT, type Run } from "./lib.js";
import { REPLY, type World } from "./world.js";

const CPU_AT_EXIT = join(ROOT, "bench", "cpu-at-exit.cjs");

type Subject = "process" | "continued" | "warm";
const SUBJECTS: readonly Subject[] = ["process", "continued", "warm"];

export interface AcpFigures {
  readonly medianMs: number;
  readonly medianCpuMs: number;
}

export interface AcpResult {
  readonly runs: number;
  readonly process: AcpFigures;
  readonly continued: AcpFigures;
  readonly warm: AcpFigures;
}

function scv(world: World, args: readonly string[]): Promise<Run> {
  const own = world.builds[0];
  if (own === undefined) throw new Error("no build to measure");
  return mustRun(process.execPath, ["--require", CPU_AT_EXIT, own.scv, ...args], {
    env: own.env,
    cwd: world.project,
  });
}

function cpuMs(run: Run): number {
  const match = /^bench-cpu-ms ([\d.]+)$/m.exec(run.stderr);
  if (match === null) throw new Error(`no CPU time reported:\n${run.stderr}`);
  return Number(match[1]);
}

const handleOf = (run: Run) => /conversation: (\S+)/.exec(run.stderr)?.[1] ?? "";

export async function acpBench(world: World, runs: number, warmup: number): Promise<AcpResult> {
  const first = await scv(world, ["delegate", "claude", "hi"]);
  if (first.stdout.trim() !== REPLY) throw new Error(`scv delegate replied ${JSON.stringify(first.stdout)}`);
  const acp = await scv(world, ["delegate", "claude", "--transport", "acp", "hi"]);
  if (!acp.stdout.startsWith("REPLY hi"))
    throw new Error(`scv delegate --transport acp replied ${JSON.stringify(acp.stdout)}`);
  const handles = { process: handleOf(first), acp: handleOf(acp) };
  const args: Record<Subject, readonly string[]> = {
    process: ["delegate", "claude", "hi"],
    continued: ["delegate", "-c", handles.process, "hi"],
    warm: ["delegate", "-c", handles.acp, "hi"],
  };
  const times = new Map<Subject, number[]>(SUBJECTS.map((subject) => [subject, []]));
  const cpu = new Map<Subject, number[]>(SUBJECTS.map((subject) => [subject, []]));
  try {
    for (let round = 0; round < warmup + runs; round += 1) {
      // Rotate the order each round: none always runs right after another.
      const order = SUBJECTS.map((_, i) => SUBJECTS[(i + round) % SUBJECTS.length] as Subject);
      for (const subject of order) {
        const run = await scv(world, args[subject]);
        if (round < warmup) continue;
        times.get(subject)?.push(run.ms);
        cpu.get(subject)?.push(cpuMs(run));
      }
    }
  } finally {
    // The conversation's session host and its server end with it.
    await scv(world, ["kill", handles.acp]);
  }
  const figures = (subject: Subject): AcpFigures => ({
    medianMs: median(times.get(subject) ?? []),
    medianCpuMs: median(cpu.get(subject) ?? []),
  });
  return { runs, process: figures("process"), continued: figures("continued"), warm: figures("warm") };
}
