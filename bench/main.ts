// The benchmark run behind `npm run bench` (see bench/run.mjs and docs/benchmarks.md): a whole busy
// turn against a bare reader, parser throughput and memory, start-up overhead, fan-out, a delegate
// round trip through `scv mcp`, a worktree made, recorded and removed. Prints
// the tables docs/benchmarks.md holds and writes them, with the raw figures, to
// node_modules/.cache/scv-bench/. `--quick` only checks that every benchmark still runs (small sizes,
// few runs): its figures mean nothing. Targets missed are reported, not failed: only a benchmark that
// cannot run fails the command.

import { existsSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type AcpFigures, type AcpResult, acpBench } from "./acp.js";
import { type BusyRow, type BusyStream, busyBench } from "./busy.js";
import { FAN_OUT, type FanOutResult, fanOutBench } from "./fanout.js";
import { fixed, type Machine, machine, OUT } from "./lib.js";
import { type McpResult, mcpBench } from "./mcp.js";
import { type McpTaskResult, mcpTaskBench } from "./mcp-tasks.js";
import { type BuildFigures, type OverheadResult, overheadBench } from "./overhead.js";
import { type ParserRow, parserBench } from "./parsers/bench.js";
import { type WorktreeResult, worktreeBench } from "./worktrees.js";
import { createWorld, SCV } from "./world.js";

const TARGET = { mbps: 200, rssMB: 120, overhead: 1.35, fanOut: 1.2, busy: 1.25, busyRssMB: 150 };

const BUSY_STREAMS: readonly BusyStream[] = [
  { label: "large, tool-heavy", bytes: 200e6 },
  { label: "short tool calls", bytes: 0, shortTools: 50_000 },
];
const BUSY_QUICK: readonly BusyStream[] = [
  { label: "large, tool-heavy", bytes: 5e6 },
  { label: "short tool calls", bytes: 0, shortTools: 1_000 },
];

const FULL = {
  busy: { streams: BUSY_STREAMS, runs: 5 },
  parsers: [
    { size: 100e6, runs: 3 },
    { size: 1e9, runs: 1 },
  ],
  overhead: { runs: 24, warmup: 2 },
  fanOutRepeats: 3,
  mcp: { runs: 24, warmup: 2 },
  mcpTasks: { runs: 12, warmup: 2 },
  acp: { runs: 24, warmup: 2 },
  worktrees: 10,
};
const QUICK = {
  busy: { streams: BUSY_QUICK, runs: 1 },
  parsers: [{ size: 10e6, runs: 1 }],
  overhead: { runs: 3, warmup: 1 },
  fanOutRepeats: 1,
  mcp: { runs: 2, warmup: 1 },
  mcpTasks: { runs: 2, warmup: 1 },
  acp: { runs: 2, warmup: 1 },
  worktrees: 1,
};

const BENCHES = ["busy", "parsers", "overhead", "fan-out", "mcp", "mcp-tasks", "acp", "worktrees"] as const;
type Bench = (typeof BENCHES)[number];
const isBench = (name: string): name is Bench => (BENCHES as readonly string[]).includes(name);

const met = (ok: boolean) => (ok ? "met" : "**missed**");

function sizeLabel(bytes: number): string {
  return bytes >= 1e9 ? `${bytes / 1e9} GB` : `${bytes / 1e6} MB`;
}

function busyTable(rows: readonly BusyRow[]): string {
  const builds = [...new Set(rows.map((row) => row.scv))];
  const name = (scv: string) => (builds.indexOf(scv) === 0 ? "scv" : `baseline ${builds.indexOf(scv)}`);
  const lines = [
    "| Stream | Tools | Runs | Build | scv wall | bare reader wall | scv / bare (median of rounds) | scv CPU | bare CPU | scv peak RSS | bare peak RSS | ≤ 1.25× | ≤ 150 MB RSS |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.label}, ${fixed(row.bytes / 1e6)} MB | ${row.tools} | ${row.runs} | ${name(row.scv)} | ${fixed(row.scvMs)} ms | ${fixed(row.bareMs)} ms | ` +
        `${fixed(row.ratio, 2)}× | ${fixed(row.scvCpuMs)} ms | ${fixed(row.bareCpuMs)} ms | ${fixed(row.scvRssMB)} MB | ${fixed(row.bareRssMB)} MB | ` +
        `${met(row.ratio <= TARGET.busy)} | ${met(row.scvRssMB <= TARGET.busyRssMB)} |`,
    );
  }
  const baselines = builds.slice(1).map((scv, i) => `Baseline ${i + 1}: \`${scv}\``);
  return [...lines, ...(baselines.length === 0 ? [] : ["", ...baselines])].join("\n");
}

function parserTable(rows: readonly ParserRow[]): string {
  const lines = [
    "| Stream | Runs | scv MB/s | ceiling MB/s | scv / ceiling | scv peak RSS | ceiling peak RSS | ≥ 200 MB/s | ≤ 120 MB RSS |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.format} ${sizeLabel(row.size)} | ${row.runs} | ${fixed(row.scvMBps)} | ${fixed(row.ceilingMBps)} | ` +
        `${fixed(row.scvMBps / row.ceilingMBps, 2)} | ${fixed(row.scvRssMB)} MB | ${fixed(row.ceilingRssMB)} MB | ` +
        `${met(row.scvMBps >= TARGET.mbps)} | ${met(row.scvRssMB <= TARGET.rssMB)} |`,
    );
  }
  return lines.join("\n");
}

function overheadTable(result: OverheadResult): string {
  const { direct, floor, node } = result;
  const [own, ...baselines] = result.builds;
  if (own === undefined) throw new Error("no build measured");
  const turnRows = (label: string, build: BuildFigures) => [
    `| \`${label}delegate claude "hi"\` | ${fixed(build.first.medianMs)} ms | ${fixed(build.first.addedMs)} ms | ${fixed(build.first.medianCpuMs)} ms |`,
    `| \`${label}delegate -c <conversation> "hi"\` (a continued turn) | ${fixed(build.continued.medianMs)} ms | ${fixed(build.continued.addedMs)} ms | ${fixed(build.continued.medianCpuMs)} ms |`,
    `| \`${label}--version\` | ${fixed(build.version.medianMs)} ms | — | ${fixed(build.version.medianCpuMs)} ms |`,
  ];
  const ratioRows = (label: string, build: BuildFigures, target: boolean) => [
    `| ${label}added / floor added | ${fixed(build.first.toFloor, 2)}× | ${target ? `≤ ${TARGET.overhead}×: ${met(build.first.toFloor <= TARGET.overhead)}` : "—"} |`,
    `| ${label}continued turn added / floor added | ${fixed(build.continued.toFloor, 2)}× | — |`,
    `| ${label}first turn's CPU / floor's CPU | ${fixed(build.first.medianCpuMs / result.floor.medianCpuMs, 2)}× | — |`,
    `| ${label}\`--version\` / \`node -e 0\`: wall, CPU | ${fixed(build.version.medianMs / result.node.medianMs, 2)}×, ${fixed(build.version.medianCpuMs / result.node.medianCpuMs, 2)}× | — |`,
  ];
  return [
    `| Command (${result.runs} interleaved runs each) | Median wall | Added to the agent alone (median of per-round differences) | Median CPU (user+sys) |`,
    "|---|---|---|---|",
    `| fake \`claude\` run directly | ${fixed(direct.medianMs)} ms | — | — |`,
    `| minimal Node wrapper (bench/floor.mjs) | ${fixed(floor.medianMs)} ms | ${fixed(floor.addedMs)} ms | ${fixed(floor.medianCpuMs)} ms |`,
    ...turnRows("scv ", own),
    ...baselines.flatMap((build, i) => turnRows(`baseline ${i + 1}: `, build)),
    `| bare \`node -e 0\` | ${fixed(node.medianMs)} ms | — | ${fixed(node.medianCpuMs)} ms |`,
    "",
    ...baselines.map((build, i) => `Baseline ${i + 1}: \`${build.scv}\``),
    ...(baselines.length === 0 ? [] : [""]),
    "| Ratio | Value | Target |",
    "|---|---|---|",
    ...ratioRows("scv ", own, true),
    ...baselines.flatMap((build, i) => ratioRows(`baseline ${i + 1}: `, build, false)),
    `| scv added / \`node -e 0\` | ${fixed(own.first.addedMs / node.medianMs, 2)}× | — |`,
    `| floor added / \`node -e 0\` | ${fixed(floor.addedMs / node.medianMs, 2)}× | — |`,
  ].join("\n");
}

function fanOutTable(result: FanOutResult): string {
  const ratio = (ms: number, one: number, target?: number) =>
    `${fixed(ms)} ms | ${fixed(ms / one, 2)}× | ${target === undefined ? "—" : `≤ ${target}×: ${met(ms / one <= target)}`} |`;
  return [
    `| ${FAN_OUT} turns on a fake claude that sleeps 1 s | One turn alone | ${FAN_OUT} turns | Ratio | Target |`,
    "|---|---|---|---|---|",
    `| one \`scv delegate --parallel ${FAN_OUT} claude … claude "hi"\` (median of ${result.repeats}) | ${fixed(result.scvOneMs)} ms | ` +
      ratio(result.scvFanOutMs, result.scvOneMs, TARGET.fanOut),
    `| ${FAN_OUT} \`scv delegate claude "hi"\` processes started together (median of ${result.repeats}) | ${fixed(result.scvOneMs)} ms | ` +
      ratio(result.scvManyMs, result.scvOneMs, TARGET.fanOut),
    `| ${FAN_OUT} minimal Node wrappers (bench/floor.mjs, once) | ${fixed(result.floorOneMs)} ms | ` +
      ratio(result.floorManyMs, result.floorOneMs),
  ].join("\n");
}

function mcpTable(result: McpResult): string {
  return [
    `| One turn on the fast fake claude (${result.runs} interleaved runs each) | Median wall |`,
    "|---|---|",
    `| \`delegate\` through a running \`scv mcp\` (MCP SDK client over stdio) | ${fixed(result.mcpMs)} ms |`,
    `| \`scv delegate claude "hi"\` as a process | ${fixed(result.cliMs)} ms |`,
    `| difference (median of per-round differences) | ${fixed(result.differenceMs)} ms |`,
  ].join("\n");
}

function mcpTaskTable(result: McpTaskResult): string {
  return [
    `| delegate as an MCP task (2026-07-28), fake claude sleeping 1 s (${result.runs} runs each) | Median |`,
    "|---|---|",
    `| the host's call → its task returned (target < 100 ms) | ${fixed(result.taskMs)} ms (${met(result.taskMs < 100)}) |`,
    `| the turn's result saved → \`tasks/get\` answers it, polling every 25 ms | ${fixed(result.resultFastMs)} ms |`,
    `| the same, polling at the task's pollIntervalMs (${result.pollIntervalMs} ms), as a host does | ${fixed(result.resultHostMs)} ms |`,
  ].join("\n");
}

function acpTable(result: AcpResult): string {
  const row = (label: string, figures: AcpFigures) =>
    `| ${label} | ${fixed(figures.medianMs)} ms | ${fixed(figures.medianMs / result.process.medianMs, 2)}× | ${fixed(figures.medianCpuMs)} ms |`;
  return [
    `| Turn on a fake claude that answers at once (${result.runs} interleaved runs each) | Median wall | ÷ process turn | Median CPU (user+sys) |`,
    "|---|---|---|---|",
    row('`scv delegate claude "hi"` (a process turn)', result.process),
    row('`scv delegate -c <conversation> "hi"` (a continued process turn)', result.continued),
    row(
      '`scv delegate -c <acp conversation> "hi"` (a warm continued ACP turn, through its session host)',
      result.warm,
    ),
  ].join("\n");
}

function worktreeTable(result: WorktreeResult): string {
  const row = (label: string, step: WorktreeResult["create"], git: string) =>
    `| ${label} | ${fixed(step.scvMs)} ms | ${fixed(step.gitMs)} ms (${git}) |`;
  const total = result.create.scvMs + result.record.scvMs + result.remove.scvMs;
  const gitTotal = result.create.gitMs + result.record.gitMs + result.remove.gitMs;
  return [
    `| On a clone of this repository (${result.files} files), median of ${result.runs} interleaved rounds | scv | git alone |`,
    "|---|---|---|",
    row("make the worktree (`createWorktree`)", result.create, "`git worktree add -b`"),
    row("record a turn that changed one file (`recordTurn`)", result.record, "`git add -A`, `git commit`"),
    row(
      "remove worktree and branch (`removeWorktree`)",
      result.remove,
      "`git worktree remove`, `git branch -D`",
    ),
    `| all three | ${fixed(total)} ms | ${fixed(gitTotal)} ms |`,
  ].join("\n");
}

function machineLine(m: Machine, quick: boolean): string {
  return (
    `${m.date} UTC · ${m.cores} × ${m.cpu} · Node ${m.node} · load average ${m.load} at start · ` +
    `NODE_EXTRA_CA_CERTS unset${quick ? " · **--quick: figures not meaningful**" : ""}`
  );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const only = option("only");
  const runs = option("runs");
  const baselines = args
    .filter((arg) => arg.startsWith("--baseline="))
    .map((arg) => resolve(arg.slice("--baseline=".length), "scv.js"));
  if (
    args.some((arg) => arg !== "--quick" && !/^--(only|baseline|runs)=/.test(arg)) ||
    (only !== undefined && !isBench(only)) ||
    (runs !== undefined && !/^[1-9]\d{0,3}$/.test(runs))
  ) {
    process.stderr.write(
      `usage: npm run bench [-- [--quick] [--only=${BENCHES.join("|")}] [--runs=<overhead rounds>] [--baseline=<another build's dist/>]…]\n`,
    );
    process.exitCode = 2;
    return;
  }
  const missing = baselines.find((scv) => !existsSync(scv));
  if (missing !== undefined) {
    process.stderr.write(
      `bench: no ${missing} — pass --baseline the dist/ folder of another build (docs/benchmarks.md shows how to make one)\n`,
    );
    process.exitCode = 2;
    return;
  }
  const quick = args.includes("--quick");
  const plan = quick ? QUICK : FULL;
  const overheadRuns = runs === undefined ? plan.overhead.runs : Number(runs);
  const started = Date.now();
  const host = machine();
  const log = (line: string) => process.stderr.write(`${line} (${fixed((Date.now() - started) / 1000)} s)\n`);

  const wanted = (bench: Bench) => only === undefined || only === bench;
  let busy: BusyRow[] | undefined;
  if (wanted("busy")) {
    log("busy…");
    busy = await busyBench(plan.busy.streams, plan.busy.runs, [SCV, ...baselines], log);
  }
  let parsers: ParserRow[] | undefined;
  if (wanted("parsers")) {
    log("parsers…");
    parsers = await parserBench(plan.parsers, log);
  }
  let overhead: OverheadResult | undefined;
  let fanOut: FanOutResult | undefined;
  let mcp: McpResult | undefined;
  let mcpTasks: McpTaskResult | undefined;
  let acp: AcpResult | undefined;
  let worktrees: WorktreeResult | undefined;
  if (wanted("overhead") || wanted("fan-out") || wanted("mcp") || wanted("mcp-tasks") || wanted("acp")) {
    const world = createWorld(baselines);
    try {
      if (wanted("overhead")) {
        log("overhead…");
        overhead = await overheadBench(world, overheadRuns, plan.overhead.warmup);
      }
      if (wanted("fan-out")) {
        log("fan-out…");
        fanOut = await fanOutBench(world, plan.fanOutRepeats);
      }
      if (wanted("mcp")) {
        log("mcp…");
        mcp = await mcpBench(world, plan.mcp.runs, plan.mcp.warmup);
      }
      if (wanted("mcp-tasks")) {
        log("mcp tasks…");
        mcpTasks = await mcpTaskBench(world, plan.mcpTasks.runs, plan.mcpTasks.warmup);
      }
      if (wanted("acp")) {
        log("acp…");
        acp = await acpBench(world, plan.acp.runs, plan.acp.warmup);
      }
    } finally {
      world.dispose();
    }
  }

  if (wanted("worktrees")) {
    log("worktrees…");
    worktrees = await worktreeBench(plan.worktrees);
  }

  const section = (title: string, table: string | undefined) =>
    table === undefined ? [] : [`### ${title}`, "", table, ""];
  const report = [
    machineLine(host, quick),
    "",
    ...section("Busy turn", busy && busyTable(busy)),
    ...section("Parsers", parsers && parserTable(parsers)),
    ...section("Overhead", overhead && overheadTable(overhead)),
    ...section("Fan-out", fanOut && fanOutTable(fanOut)),
    ...section("scv mcp", mcp && mcpTable(mcp)),
    ...section("scv mcp: delegate as a task", mcpTasks && mcpTaskTable(mcpTasks)),
    ...section("ACP: a warm continued turn", acp && acpTable(acp)),
    ...section("Worktrees", worktrees && worktreeTable(worktrees)),
    `(benchmark took ${fixed((Date.now() - started) / 1000)} s)`,
    "",
  ].join("\n");
  // A partial run (--only) prints its table but leaves the full run's files alone.
  if (only !== undefined) {
    process.stdout.write(report);
    return;
  }
  process.stdout.write(report);
  writeFileSync(join(OUT, quick ? "results-quick.md" : "results.md"), report);
  writeFileSync(
    join(OUT, quick ? "results-quick.json" : "results.json"),
    `${JSON.stringify({ machine: host, quick, busy, parsers, overhead, fanOut, mcp, mcpTasks, acp, worktrees }, null, 2)}\n`,
  );
}

await main();
