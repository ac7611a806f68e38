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
import { signIn } from "./world.js";

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

/** One build's figures on one stream. */
export interface BusyRow {
  readonly label: string;
  /** The build's `scv.js`: this build's copy first, then each `--baseline`. */
  readonly scv: string;
  readonly bytes: number;
  readonly tools: number;
  readonly runs: number;
  readonly scvMs: number;
  readonly bareMs: number;
  /** Median over runs of scv's time / the bare reader's in the same round. */
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

/** `builds`: the `scv.js` of each build to measure, this one first; each gets its own SCV_HOME (a code
 * cache belongs to one build). */
export async function busyBench(
  streams: readonly BusyStream[],
  runs: number,
  builds: readonly string[],
  log: (line: string) => void,
): Promise<BusyRow[]> {
  const root = diskDir();
  try {
    const project = join(root, "project");
    const bin = join(root, "bin");
    for (const dir of [project, bin, join(root, "home")]) mkdirSync(dir);
    const agent = join(bin, "claude");
    const base = cleanEnv({
      HOME: join(root, "home"),
      PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    });
    const envs = builds.map((scv, i) => {
      const env = { ...base, SCV_HOME: join(root, `scv-home-${i}`) };
      signIn(scv, env, project);
      return env;
    });
    const rows: BusyRow[] = [];
    for (const stream of streams) {
      const file = join(root, "stream.jsonl");
      const tally = writeStream(file, stream);
      writeFileSync(agent, `#!/bin/sh\nexec cat '${file}'\n`);
      chmodSync(agent, 0o755);
      const node = (args: readonly string[], env = base) =>
        mustRun(process.execPath, ["--require", CPU_AT_EXIT, ...args], { env, cwd: project });
      // Subject 0 is the bare reader, subject i + 1 build i.
      const subjects = [undefined, ...builds];
      const measured = subjects.map((): Run[] => []);
      for (let i = 0; i < runs; i += 1) {
        // Rotate the order, so none always meets the same moment of a noisy machine.
        for (let k = 0; k < subjects.length; k += 1) {
          const index = (k + i) % subjects.length;
          const scv = subjects[index];
          const run =
            scv === undefined
              ? await node([BARE_READER, agent])
              : await node([scv, "delegate", "claude", "hi"], envs[index - 1]);
          if (scv === undefined && Number(run.stdout) !== tally.lines)
            throw new Error(`the bare reader read ${run.stdout.trim()} of ${tally.lines} lines`);
          if (scv !== undefined && !run.stdout.startsWith(tally.reply.trimEnd()))
            throw new Error(`${scv} replied ${JSON.stringify(run.stdout.slice(0, 200))}`);
          measured[index]?.push(run);
          log(`  busy ${stream.label} ${scv ?? "bare"}: ${(run.ms / 1000).toFixed(2)} s`);
        }
      }
      // maxRSS comes in KiB.
      const rss = (list: Run[]) =>
        (Math.max(...list.map((run) => reported(run, "bench-max-rss-kb"))) * 1024) / 1e6;
      const cpu = (list: Run[]) => median(list.map((run) => reported(run, "bench-cpu-ms")));
      const bare = measured[0] as Run[];
      builds.forEach((scv, i) => {
        const own = measured[i + 1] as Run[];
        rows.push({
          label: stream.label,
          scv,
          bytes: tally.bytes,
          tools: tally.tools,
          runs,
          scvMs: median(own.map((run) => run.ms)),
          bareMs: median(bare.map((run) => run.ms)),
          ratio: median(own.map((run, k) => run.ms / (bare[k] as Run).ms)),
          scvRssMB: rss(own),
          bareRssMB: rss(bare),
          scvCpuMs: cpu(own),
          bareCpuMs: cpu(bare),
        });
      });
      rmSync(file);
    }
    return rows;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
