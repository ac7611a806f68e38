// A check after a turn: run in the worktree with the project's environment (no credentials, no
// SCV_*), bounded by its time limit with everything it started ended, and its last lines kept.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkEnvironment, lastLines, runCheck } from "../../src/worktrees/check.js";
import { killAll, survivors } from "../helpers/pids.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "scv-check-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const CANARY = "canary-7f3e1b-never-shown";
const env = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: "/home/someone",
  DATABASE_URL: "postgres://localhost/test",
  OPENAI_API_KEY: CANARY,
  ANTHROPIC_AUTH_TOKEN: CANARY,
  AWS_SECRET_ACCESS_KEY: CANARY,
  SCV_HOME: "/scv-home",
};

describe("runCheck", () => {
  it("passes on exit 0, in the worktree, with the project's environment and no credential", async () => {
    writeFileSync(join(dir, "marker"), "here\n");
    const result = await runCheck("cat marker && env", { cwd: dir, env, timeoutMs: 30_000, tailLines: 100 });
    expect(result.status).toBe("pass");
    expect(result.exitCode).toBe(0);
    expect(result.command).toBe("cat marker && env");
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(result.tail).toContain("here");
    expect(result.tail).toContain("DATABASE_URL=postgres://localhost/test");
    expect(result.tail).toContain("HOME=/home/someone");
    expect(result.tail.join("\n")).not.toContain(CANARY);
    expect(result.tail.join("\n")).not.toContain("SCV_HOME");
  });

  it("fails with the exit code and keeps the last lines of both streams", async () => {
    const script = "for i in $(seq 1 500); do echo out $i; done; echo 'FAIL test/a.test.ts' >&2; exit 3";
    const result = await runCheck(script, { cwd: dir, env, timeoutMs: 30_000, tailLines: 3 });
    expect(result.status).toBe("fail");
    expect(result.exitCode).toBe(3);
    expect(result.tail).toEqual(["out 499", "out 500", "FAIL test/a.test.ts"]);
  });

  it("ends a check at its limit with what it started", async () => {
    const pids = join(dir, "pids");
    const script = `sleep 600 & echo $! >> ${pids}; echo started; exec sleep 600`;
    const result = await runCheck(script, { cwd: dir, env, timeoutMs: 500, graceMs: 500 });
    expect(result.status).toBe("timeout");
    expect(result.exitCode).toBeNull();
    expect(result.tail).toEqual(["started"]);
    const started = readFileSync(pids, "utf8").trim().split("\n").map(Number);
    const left = await survivors(started, 2_000);
    killAll(left);
    expect(left).toEqual([]);
  });
});

describe("pure parts", () => {
  it("keeps the caller's variables but credentials and scv's own, as an agent's turn would", () => {
    expect(checkEnvironment(env)).toEqual({
      PATH: env.PATH,
      HOME: "/home/someone",
      DATABASE_URL: "postgres://localhost/test",
    });
    expect(checkEnvironment(env, { remove: ["DATABASE_*"] })).not.toHaveProperty("DATABASE_URL");
  });

  it("takes the last non-empty lines, a progress line as its last state", () => {
    expect(lastLines("a\n\nb\r\nc 10%\rc 100%\n\n", 2)).toEqual(["b", "c 100%"]);
    expect(lastLines("", 5)).toEqual([]);
  });
});
