// A whole busy turn: one `scv delegate claude "hi"` process (the built scv) on a fake claude that
// prints a large, tool-heavy stream, with HOME and SCV_HOME on disk, against a bare Node reader of the
// same bytes (bench/bare-reader.mjs: spawn the same fake, readline, JSON.parse). Two streams: a large
// one (long texts and tool outputs, as generated for the parser benchmark) and one of many short tool
// calls, where what scv does per tool, not per byte, sets its speed. The streams are written to files
// first and the fake is `cat`, so the agent costs both sides next to nothing and the same. Wall time
// from spawn to exit, peak RSS from the process itself (bench/cpu-at-exit.cjs).

import {
  chmodSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  statfsSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanEnv, median, mustRun, OUT, ROOT, type Run } from "./lib.js";
import { generateStream, type StreamOptions, type StreamTally } from "./parsers/generate.js";
import { SCV, signIn } from "./world.js";

const CPU_AT_EXIT = join(ROOT, "bench", "cpu-at-exit.cjs");
const BARE_READER = join(ROOT, "bench", "bare-reader.mjs");
/** statfs's type of a tmpfs: a memory-backed SCV_HOME would hide what writing files costs. */
const TMPFS = 0x01021994;

export interface BusyStream {
  readonly label: string;
  /** Bytes of the large stream; ignored when `shortTools` is set. */
  readonly bytes: number;
  readonly shortTools?: number;
}

export interface BusyRow {
  readonly label: string;
  readonly bytes: number;
  readonly tools: number;
  readonly runs: number;
  readonly scvMs: number;
  readonly bareMs: number;
  /** Median over runs of scv's time / the bare reader's, each pair measured back to back. */
  readonly ratio: number;
  /** Highest peak RSS over the runs, in MB (10^6 bytes). */
  readonly scvRssMB: number;
  readonly bareRssMB: number;
  readonly scvCpuMs: number;
  readonly bareCpuMs: number;
}

/** A temporary folder on disk: the system's, unless that is a tmpfs. */
function diskDir(): string {
  const system = tmpdir();
  const base = statfsSync(system).type === TMPFS ? join(OUT, "busy") : system;
  mkdirSync(base, { recursive: true });
  return mkdtempSync(join(base, "bench-busy-"));
}

function writeStream(path: string, stream: BusyStream): StreamTally {
  const tally: StreamTally = { lines: 0, bytes: 0, tools: 0, reply: "" };
  // scv's default policy: claude must report the default mode, or scv stops the turn.
  const options: StreamOptions = {
    permissionMode: "default",
    ...(stream.shortTools === undefined ? {} : { shortTools: stream.shortTools }),
  };
  const fd = openSync(path, "w");
  try {
    for (const chunk of generateStream(ROOT, "claude", stream.bytes, tally, options)) writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
  return tally;
}

function reported(run: Run, name: string): number {
  const match = new RegExp(`^${name} ([\\d.]+)$`, "m").exec(run.stderr);
  if (match === null) throw new Error(`no ${name} reported:\n${run.stderr.slice(-2000)}`);
  return Number(match[1]);
}

export async function busyBench(
  streams: readonly BusyStream[],
  runs: number,
  log: (line: string) => void,
): Promise<BusyRow[]> {
  const root = diskDir();
  try {
    const project = join(root, "project");
    const bin = join(root, "bin");
    for (const dir of [project, bin, join(root, "home")]) mkdirSync(dir);
    const agent = join(bin, "claude");
    const env = cleanEnv({
      HOME: join(root, "home"),
      SCV_HOME: join(root, "scv-home"),
      PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    });
    signIn(SCV, env, project);
    const rows: BusyRow[] = [];
    for (const stream of streams) {
      const file = join(root, "stream.jsonl");
      const tally = writeStream(file, stream);
      writeFileSync(agent, `#!/bin/sh\nexec cat '${file}'\n`);
      chmodSync(agent, 0o755);
      const node = (args: readonly string[]) =>
        mustRun(process.execPath, ["--require", CPU_AT_EXIT, ...args], { env, cwd: project });
      const measured = { scv: [] as Run[], bare: [] as Run[] };
      const check = {
        scv(run: Run) {
          if (!run.stdout.startsWith(tally.reply.trimEnd()))
            throw new Error(`scv replied ${JSON.stringify(run.stdout.slice(0, 200))}`);
        },
        bare(run: Run) {
          if (Number(run.stdout) !== tally.lines)
            throw new Error(`the bare reader read ${run.stdout.trim()} of ${tally.lines} lines`);
        },
      };
      for (let i = 0; i < runs; i += 1) {
        // Alternate which goes first, so neither always meets the same moment of a noisy machine.
        const order = i % 2 === 0 ? (["scv", "bare"] as const) : (["bare", "scv"] as const);
        for (const side of order) {
          const run =
            side === "scv" ? await node([SCV, "delegate", "claude", "hi"]) : await node([BARE_READER, agent]);
          check[side](run);
          measured[side].push(run);
          log(`  busy ${stream.label} ${side}: ${(run.ms / 1000).toFixed(2)} s`);
        }
      }
      // maxRSS comes in KiB.
      const rss = (list: Run[]) =>
        (Math.max(...list.map((run) => reported(run, "bench-max-rss-kb"))) * 1024) / 1e6;
      const cpu = (list: Run[]) => median(list.map((run) => reported(run, "bench-cpu-ms")));
      rows.push({
        label: stream.label,
        bytes: tally.bytes,
        tools: tally.tools,
        runs,
        scvMs: median(measured.scv.map((run) => run.ms)),
        bareMs: median(measured.bare.map((run) => run.ms)),
        ratio: median(measured.scv.map((run, i) => run.ms / (measured.bare[i] as Run).ms)),
        scvRssMB: rss(measured.scv),
        bareRssMB: rss(measured.bare),
        scvCpuMs: cpu(measured.scv),
        bareCpuMs: cpu(measured.bare),
      });
      rmSync(file);
    }
    return rows;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
