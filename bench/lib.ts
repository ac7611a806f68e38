// What every benchmark shares: the clean environment children run in, timing a child process,
// medians, and the machine a run was made on.

import { spawn } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository, as bench/run.mjs says (the bundles run from node_modules/.cache/scv-bench/). */
export const ROOT = process.env.SCV_BENCH_ROOT ?? fileURLToPath(new URL("../../../", import.meta.url));
/** Where the bundles are, and where results are written. */
export const OUT = process.env.SCV_BENCH_OUT ?? join(ROOT, "node_modules", ".cache", "scv-bench");

/** This environment without NODE_EXTRA_CA_CERTS: set on these machines, it costs ~110 ms of every
 * Node start-up by itself, which would drown what is measured here. */
export function cleanEnv(extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && name !== "NODE_EXTRA_CA_CERTS") env[name] = value;
  }
  return { ...env, ...extra };
}

export interface Run {
  readonly ms: number;
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/** Starts `file args`, drains its output, and resolves with the wall time from spawn to exit. */
export function timedRun(file: string, args: readonly string[], options: RunOptions): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(file, args, {
      env: options.env,
      cwd: options.cwd ?? ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      resolve({
        ms: Number(process.hrtime.bigint() - started) / 1e6,
        code,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8"),
      });
    });
  });
}

/** Like timedRun, but a failing exit is an error that shows the child's stderr. */
export async function mustRun(file: string, args: readonly string[], options: RunOptions): Promise<Run> {
  const run = await timedRun(file, args, options);
  if (run.code !== 0) {
    throw new Error(`${file} ${args.join(" ")} exited with ${run.code}:\n${run.stderr.trim()}`);
  }
  return run;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error("median of nothing");
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export interface Machine {
  readonly cores: number;
  readonly cpu: string;
  readonly node: string;
  readonly date: string;
  /** The 1-minute load average when the run started: these machines are shared. */
  readonly load: number;
}

export function machine(): Machine {
  const all = cpus();
  return {
    cores: all.length,
    cpu: all[0]?.model.trim() ?? "unknown",
    node: process.version,
    date: new Date().toISOString().slice(0, 16).replace("T", " "),
    load: Number((loadavg()[0] ?? 0).toFixed(2)),
  };
}

export function fixed(value: number, digits = 0): string {
  return value.toFixed(digits);
}
