// Runs a short helper command of an agent CLI (`--version`, `login status`) with a time limit,
// capturing its output, and ends its whole process group when the limit passes. Uses node's own
// child_process rather than execa: it sits on the path of `scv agents list`, which must start fast.

import { spawn } from "node:child_process";
import { trackGroup, untrackGroup } from "./groups.js";

export interface BoundedResult {
  /** Exit code, or null when it ended by a signal or timed out. */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  /** Set when it could not be started at all. */
  readonly spawnError?: string;
}

export interface BoundedOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly cwd?: string;
  readonly timeoutMs: number;
  /** Bytes kept of each stream. */
  readonly maxBytes?: number;
  /** Written to stdin, which is then closed; stdin is /dev/null otherwise. */
  readonly input?: string;
}

export function runBounded(
  command: string,
  args: readonly string[],
  options: BoundedOptions,
): Promise<BoundedResult> {
  const maxBytes = options.maxBytes ?? 64 * 1024;
  return new Promise((resolve) => {
    const child = spawn(command, [...args], {
      env: options.env,
      cwd: options.cwd,
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      detached: true,
    });
    // Detached, so that ending it ends what it started; tracked, so that scv's own end ends it.
    if (child.pid !== undefined) trackGroup(child.pid);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let timedOut = false;
    child.stdout?.on("data", (chunk: Buffer) => {
      if (outBytes < maxBytes) out.push(chunk);
      outBytes += chunk.length;
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      if (errBytes < maxBytes) err.push(chunk);
      errBytes += chunk.length;
    });
    if (options.input !== undefined) {
      child.stdin?.on("error", () => {});
      child.stdin?.end(options.input);
    }
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        child.kill(signal);
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup("SIGKILL");
    }, options.timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      if (child.pid !== undefined) untrackGroup(child.pid);
      resolve({ code: null, stdout: "", stderr: "", timedOut: false, spawnError: error.message });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      // Helpers a CLI left behind in its group go with it.
      killGroup("SIGKILL");
      if (child.pid !== undefined) untrackGroup(child.pid);
      resolve({
        code: timedOut ? null : code,
        stdout: Buffer.concat(out).toString("utf8").slice(0, maxBytes),
        stderr: Buffer.concat(err).toString("utf8").slice(0, maxBytes),
        timedOut,
      });
    });
  });
}
