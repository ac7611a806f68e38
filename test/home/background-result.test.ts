// Saving a background turn's result on a disk that will not take it, with write failures injected:
// the reserve is released for the whole result, else a minimal result says what was lost, else one
// line goes to the log — which the reaper then reports as the job's result.

import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  FILE_WRITER,
  holdReserve,
  RESERVE_BYTES,
  type ResultWriter,
} from "../../src/home/background-result.js";
import { jobFile, turnFile } from "../../src/home/turn-files.js";
import { readFinished, readRunning, saveBackgroundResult } from "../../src/home/turn-records.js";
import type { ProcessTable } from "../../src/os/processes.js";
import type { TurnResult } from "../../src/result.js";
import { reapOrphans } from "../../src/turn/reap.js";

const JOB = "claude-aaaaaa.q1w2e3r4";
let home: string;
let env: Record<string, string>;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "scv-result-"));
  env = { SCV_HOME: home };
  mkdirSync(join(home, "turns"), { recursive: true, mode: 0o700 });
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const result: TurnResult = {
  reply: "the agent's long answer",
  status: "completed",
  agent: "claude",
  conversation: "claude-aaaaaa",
  session: "3f0c9a52-6a53-4a8e-9c1e-2f7d5b8e4a10",
  usage: null,
  cost: null,
  duration: 1000,
  exitCode: 0,
  error: null,
  hint: null,
  fallbacks: [],
  notes: [],
  mode: null,
  badLines: 0,
};

/** The real writer, failing its first `failures` writes with `code`; the log lines it was given. */
function failing(failures: number, code: string, options: { logFails?: boolean } = {}) {
  const lines: string[] = [];
  let calls = 0;
  const writer: ResultWriter = {
    write(path, text) {
      calls += 1;
      if (calls <= failures) throw Object.assign(new Error(`${code}: injected`), { code, path });
      FILE_WRITER.write(path, text);
    },
    log(line) {
      if (options.logFails) throw Object.assign(new Error("ENOSPC"), { code: "ENOSPC" });
      lines.push(line);
    },
  };
  return { writer, lines, calls: () => calls };
}

function running(background = true): void {
  writeFileSync(
    turnFile("claude-aaaaaa", "running", env),
    JSON.stringify({
      version: 1,
      handle: "claude-aaaaaa",
      tag: JOB,
      agent: "claude",
      prompt: "Say hi",
      cwd: "/project",
      depth: 0,
      background,
      host: hostname(),
      startedAt: "2026-01-01T10:00:00.000Z",
      scv: { pid: process.pid, startTime: "1000" },
    }),
  );
}

function save(writer: ResultWriter) {
  return saveBackgroundResult(JOB, result, new Date(), env, writer);
}

describe("a background result on a full disk", () => {
  it("holds a reserve of real blocks from the start, and never two for one job", () => {
    const reserve = jobFile(JOB, "reserve", env);
    expect(holdReserve(reserve)).toBe(true);
    expect(statSync(reserve).size).toBe(RESERVE_BYTES);
    expect(statSync(reserve).blocks * 512).toBeGreaterThanOrEqual(RESERVE_BYTES);
    expect(holdReserve(reserve)).toBe(false);
  });

  it("saves as always when the disk takes it, and lets the reserve go", () => {
    holdReserve(jobFile(JOB, "reserve", env));
    running();
    expect(save(failing(0, "ENOSPC").writer)).toBe("saved");
    expect(readFinished(JOB, env)?.result).toEqual(result);
    expect(existsSync(jobFile(JOB, "reserve", env))).toBe(false);
    expect(readRunning("claude-aaaaaa", env)).toBeUndefined();
  });

  for (const code of ["ENOSPC", "EDQUOT", "EFBIG", "EROFS", "EACCES", "EPERM"]) {
    it(`${code}: releases the reserve and saves the whole result, with a note`, () => {
      holdReserve(jobFile(JOB, "reserve", env));
      running();
      const { writer, calls } = failing(1, code);
      expect(save(writer)).toBe("saved-from-reserve");
      expect(calls()).toBe(2);
      const saved = readFinished(JOB, env)?.result;
      expect(saved?.reply).toBe(result.reply);
      expect(saved?.exitCode).toBe(0);
      expect(saved?.notes).toEqual([
        expect.stringMatching(new RegExp(`^saved from the space scv held for it: ${code} — `)),
      ]);
      expect(existsSync(jobFile(JOB, "reserve", env))).toBe(false);
      expect(readRunning("claude-aaaaaa", env)).toBeUndefined();
    });
  }

  it("else a minimal result: no reply, one line saying what was lost and where it still is", () => {
    holdReserve(jobFile(JOB, "reserve", env));
    running();
    expect(save(failing(2, "ENOSPC").writer)).toBe("saved-minimal");
    const saved = readFinished(JOB, env)?.result;
    expect(saved).toMatchObject({ reply: "", status: "completed", exitCode: 1, notes: [] });
    expect(saved?.error).toBe(
      `the result of job ${JOB} could not be saved whole (its reply, 23 characters, is lost here): ENOSPC — free some disk space — its session keeps it: scv delegate -c claude-aaaaaa "…"`,
    );
  });

  it("else one line in the log, which the reaper reports as the job's result instead of 'died'", async () => {
    holdReserve(jobFile(JOB, "reserve", env));
    running();
    const { writer, lines } = failing(3, "ENOSPC");
    expect(save(writer)).toBe("logged");
    expect(lines).toEqual([
      `scv: the result of job ${JOB} could not be saved: ENOSPC — free some disk space\n`,
    ]);
    expect(existsSync(jobFile(JOB, "reserve", env))).toBe(false);
    // The record stays for the reaper; the scv then exits.
    expect(readRunning("claude-aaaaaa", env)?.tag).toBe(JOB);
    writeFileSync(jobFile(JOB, "log", env), `something earlier\n${lines[0]}`);
    const dead: ProcessTable = {
      startTime: () => undefined,
      zombie: () => false,
      pidsWithEnv: () => [],
      kill: () => {},
    };
    await reapOrphans(env, dead);
    expect(readFinished(JOB, env)?.result).toMatchObject({
      status: "failed",
      exitCode: 1,
      error: `the result of job ${JOB} could not be saved: ENOSPC — free some disk space`,
    });
  });

  it("says 'lost' when not even the log takes a line; another failure is thrown as before", () => {
    running();
    expect(save(failing(3, "ENOSPC", { logFails: true }).writer)).toBe("lost");
    expect(() => save(failing(1, "EISDIR").writer)).toThrow(/EISDIR/);
  });
});
