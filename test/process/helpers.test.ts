// The helper every non-turn process goes through: a time limit, a group of its own, and everything
// it started ended when it ends — also what left the group.

import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runBounded, startDetached } from "../../src/process/helpers.js";
import { isAlive, killAll, survivors } from "../helpers/pids.js";

let dir: string;
const started: number[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "scv-bounded-"));
});
afterEach(() => {
  killAll(started.splice(0));
  rmSync(dir, { recursive: true, force: true });
});

const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };

/** A shell script's pids, written one per line to `pids`. */
function pidsIn(file: string): number[] {
  const pids = readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map(Number);
  started.push(...pids);
  return pids;
}

describe("runBounded", () => {
  it("ends a command at its limit, with what it started inside and outside its group", async () => {
    const pids = join(dir, "pids");
    const script = `sleep 600 & echo $! >> ${pids}; setsid sleep 600 & echo $! >> ${pids}; echo $$ >> ${pids}; exec sleep 600`;
    const begun = Date.now();
    const result = await runBounded("/bin/sh", ["-c", script], { env, timeoutMs: 500, graceMs: 500 });
    expect(result.timedOut).toBe(true);
    expect(result.code).toBeNull();
    // Ended, not left to its 600 s (a loaded machine makes the sweep of what it started slow).
    expect(Date.now() - begun).toBeLessThan(30_000);
    expect(await survivors(pidsIn(pids), 500)).toEqual([]);
  });

  it("keeps its output, bounded, and writes its input", async () => {
    const result = await runBounded("/bin/sh", ["-c", "cat; printf 'x%.0s' $(seq 1 5000) >&2"], {
      env,
      timeoutMs: 10_000,
      input: "given\n",
      maxBytes: 100,
    });
    expect(result).toMatchObject({ code: 0, stdout: "given\n", timedOut: false });
    expect(result.stderr).toBe("x".repeat(100));
  });

  it("hands output on when told, and keeps none", async () => {
    const sink = new PassThrough();
    let seen = "";
    sink.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
    });
    const result = await runBounded("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"], {
      env,
      timeoutMs: 10_000,
      forward: { stdout: sink, stderr: sink },
    });
    expect(result).toMatchObject({ code: 3, stdout: "", stderr: "" });
    expect(seen.split("\n").sort()).toEqual(["", "err", "out"]);
  });

  it("says when the command cannot be started", async () => {
    const result = await runBounded(join(dir, "missing"), [], { env, timeoutMs: 1_000 });
    expect(result.code).toBeNull();
    expect(result.spawnError).toMatch(/ENOENT/);
  });
});

describe("startDetached", () => {
  async function launch(script: string, readyWithinMs: number) {
    const log = openSync(join(dir, "log"), "a", 0o600);
    try {
      return await startDetached("/bin/sh", ["-c", script], {
        env,
        cwd: dir,
        input: "job\n",
        output: log,
        readyWord: "started",
        readyWithinMs,
        graceMs: 500,
      });
    } finally {
      closeSync(log);
    }
  }

  it("lets a process that says it is ready go on, its output in the file", async () => {
    const pids = join(dir, "pids");
    const outcome = await launch(
      `echo $$ > ${pids}; read job; echo "got $job"; echo started >&3; exec sleep 600`,
      10_000,
    );
    expect(outcome).toBe("ready");
    const [pid] = pidsIn(pids);
    expect(isAlive(pid ?? 0)).toBe(true);
    expect(readFileSync(join(dir, "log"), "utf8")).toBe("got job\n");
  });

  it("ends one that never says so, whole, and tells one that ended", async () => {
    const pids = join(dir, "pids");
    const outcome = await launch(
      `echo $$ >> ${pids}; setsid sleep 600 & echo $! >> ${pids}; exec sleep 600`,
      500,
    );
    expect(outcome).toBe("timed-out");
    expect(await survivors(pidsIn(pids), 500)).toEqual([]);
    expect(await launch("exit 0", 10_000)).toBe("ended");
  });
});
