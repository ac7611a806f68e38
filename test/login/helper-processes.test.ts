// The short processes scv runs besides a turn — a CLI's `--version`, its `login status`, its own
// logout — are bounded the way a turn is: a CLI that leaves a daemon holding their stdout (in their
// process group, in a session of its own, or deaf to SIGTERM too) does not hold scv, and nothing it
// started is left running. Before, `scv agents list`, `agents status` and `agents logout` waited for
// that stdout to close: forever, for a daemon outside the group.

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isAlive, killAll, survivors } from "../helpers/pids.js";
import { worldTime } from "../helpers/timing.js";

const SCV = resolve("dist/scv.js");
const FAKES = resolve("test/login/fakes");

let root: string;
let env: NodeJS.ProcessEnv;
let pidsFile: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "scv-helpers-"));
  mkdirSync(join(root, "home"));
  pidsFile = join(root, "daemons");
  env = {
    PATH: `${FAKES}:/usr/bin:/bin`,
    HOME: join(root, "home"),
    SCV_HOME: join(root, "scv"),
    LANG: "C.UTF-8",
    ...worldTime(),
    FAKE_DAEMON_PIDS: pidsFile,
  };
});

afterEach(() => {
  killAll(daemons());
  rmSync(root, { recursive: true, force: true });
});

function daemons(): number[] {
  if (!existsSync(pidsFile)) return [];
  return readFileSync(pidsFile, "utf8").trim().split("\n").filter(Boolean).map(Number);
}

/** scv, given at most `limitMs`: a run that has not ended by then is killed and reported as such. */
function scv(
  args: readonly string[],
  extra: NodeJS.ProcessEnv = {},
  input = "",
  limitMs = 15_000,
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number; hung: boolean }> {
  const started = Date.now();
  const child = spawn(process.execPath, [SCV, ...args], {
    env: { ...env, ...extra },
    stdio: ["pipe", "pipe", "pipe"],
  });
  child.stdin.end(input);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let hung = false;
  const limit = setTimeout(() => {
    hung = true;
    child.kill("SIGKILL");
  }, limitMs);
  // 'exit', not 'close': a daemon scv failed to end would hold these pipes too.
  return new Promise((done) =>
    child.on("exit", (code) => {
      clearTimeout(limit);
      done({ code, stdout, stderr, ms: Date.now() - started, hung });
    }),
  );
}

describe.each(["group", "setsid", "deaf"] as const)("a CLI leaving a %s daemon on its stdout", (kind) => {
  it("agents list reports its version and ends the daemon", async () => {
    const run = await scv(["agents", "list", "--json"], { FAKE_DAEMON: kind });
    expect(run.hung).toBe(false);
    expect(run.code).toBe(0);
    const rows = JSON.parse(run.stdout) as { name: string; version: string | null }[];
    expect(rows.find((row) => row.name === "codex")?.version).toBe("0.171.0");
    expect(daemons().length).toBeGreaterThan(0);
    expect(await survivors(daemons(), 1_000)).toEqual([]);
  });

  it("agents status and logout answer and end it", async () => {
    expect((await scv(["agents", "login", "codex", "--with-api-key"], {}, "CANARY-KEY-7f3a\n")).code).toBe(0);
    const status = await scv(["agents", "status", "codex", "--json"], { FAKE_DAEMON: kind });
    expect(status.hung).toBe(false);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ state: "signed-in", detail: "signed in (API key)" });
    const logout = await scv(["agents", "logout", "codex"], { FAKE_DAEMON: kind });
    expect(logout.hung).toBe(false);
    expect(logout.code).toBe(0);
    expect(logout.stderr).toContain("scv: codex: signed out");
    // One for the status's `login status`, its `--version`, the logout and its check afterwards.
    expect(daemons().length).toBeGreaterThanOrEqual(3);
    expect(await survivors(daemons(), 1_000)).toEqual([]);
    expect(daemons().filter(isAlive)).toEqual([]);
  });

  it("a sign-in at the terminal (no time limit) still ends what it left behind", async () => {
    // A display: the browser sign-in runs without a terminal here.
    const login = await scv(["agents", "login", "codex"], { FAKE_DAEMON: kind, DISPLAY: ":0" });
    expect(login.hung).toBe(false);
    expect(login.code).toBe(0);
    expect(daemons().length).toBeGreaterThan(0);
    expect(await survivors(daemons(), 1_000)).toEqual([]);
  });
});
