// `--check "<command>"`: a command run after a turn in its worktree (`sh -c`), with the project's
// environment — the caller's, minus what no agent gets (scv's own `SCV_*` and every credential
// variable: src/transport/env.ts) — bounded by a time limit, its whole process group ended then
// (src/process/helpers.ts). What comes back: the exit code, the time it took, and its last lines
// (stdout and stderr as they came), for the comparison and the result.
//
// API: `runCheck(command, { cwd, env, timeoutMs, isolation?, tailLines? })` → `CheckResult`;
// `checkEnvironment(env, isolation)` (pure).

import { Writable } from "node:stream";
import type { Env } from "../home/paths.js";
import { runBounded } from "../process/helpers.js";
import { type IsolationSettings, withheldVariables } from "../transport/env.js";

export interface CheckResult {
  readonly command: string;
  /** `pass`: exit 0; `fail`: another exit, a signal, or it could not start; `timeout`: ended at its limit. */
  readonly status: "pass" | "fail" | "timeout";
  /** Its exit code; null when it ended by a signal, at its limit, or never started. */
  readonly exitCode: number | null;
  readonly durationMs: number;
  /** Its last lines of output (both streams, as they came). */
  readonly tail: readonly string[];
}

export interface CheckOptions {
  /** The worktree's folder. */
  readonly cwd: string;
  /** The caller's environment (`io.env`). */
  readonly env: Env;
  readonly timeoutMs: number;
  /** The config's `[isolation]`, as for an agent's turn. */
  readonly isolation?: IsolationSettings;
  /** Lines kept from the end of its output (default 20). */
  readonly tailLines?: number;
  readonly graceMs?: number;
}

/** Bytes of output kept from the end, enough for the last lines of any test runner. */
const TAIL_BYTES = 16 * 1024;
const DEFAULT_TAIL_LINES = 20;

/** The check's environment: the caller's minus scv's own variables and every credential. Pure. */
export function checkEnvironment(env: Env, isolation?: IsolationSettings): Record<string, string> {
  const withheld = withheldVariables(isolation);
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !withheld(name)) kept[name] = value;
  }
  return kept;
}

/** A sink keeping the last `bytes` of what is written to it. */
function tailSink(bytes: number): { readonly sink: Writable; text(): string } {
  let kept = Buffer.alloc(0);
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      kept = Buffer.concat([kept, chunk]);
      if (kept.length > bytes * 2) kept = kept.subarray(kept.length - bytes);
      done();
    },
  });
  return { sink, text: () => kept.subarray(Math.max(0, kept.length - bytes)).toString("utf8") };
}

/** The last `count` non-empty lines of `text`, carriage-return overwrites resolved. Pure. */
export function lastLines(text: string, count: number): string[] {
  const lines = text
    .split("\n")
    .map((line) => line.slice(line.replace(/\r+$/, "").lastIndexOf("\r") + 1).replace(/\r+$/, ""))
    .filter((line) => line.trim() !== "");
  return lines.slice(-count);
}

export async function runCheck(command: string, options: CheckOptions): Promise<CheckResult> {
  const output = tailSink(TAIL_BYTES);
  const started = performance.now();
  const result = await runBounded("/bin/sh", ["-c", command], {
    env: checkEnvironment(options.env, options.isolation),
    cwd: options.cwd,
    timeoutMs: options.timeoutMs,
    forward: { stdout: output.sink, stderr: output.sink },
    ...(options.graceMs === undefined ? {} : { graceMs: options.graceMs }),
  });
  const durationMs = Math.round(performance.now() - started);
  const text = result.spawnError === undefined ? output.text() : `${output.text()}\n${result.spawnError}`;
  return {
    command,
    status: result.timedOut ? "timeout" : result.code === 0 ? "pass" : "fail",
    exitCode: result.code,
    durationMs,
    tail: lastLines(text, options.tailLines ?? DEFAULT_TAIL_LINES),
  };
}
