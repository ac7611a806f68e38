// The spare runner of `scv mcp`, with a small stand-in for the detached scv (it loads, waits on its
// stdin, says "started" on fd 3 and records what it was handed): the job goes to the process started
// ahead of time, its log becomes the job's, a new spare follows; a spare from before an upgrade, or
// one that died, is not used; a released spare exits and leaves no log.

import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSpareRunner, type SpareRunner } from "../../src/jobs/spare.js";

// Says it is loaded (its pid, on stdout: the log), then waits for its input; records it, says
// "started" on fd 3 and lingers a moment as a turn would. Empty input: it exits.
const STAND_IN = `
const fs = require("node:fs");
process.stdout.write("loaded " + process.pid + "\\n");
let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  if (input === "") process.exit(0);
  fs.writeFileSync(process.env.SCV_TEST_HANDED, input + " " + process.pid);
  fs.writeSync(3, "started\\n");
  setTimeout(() => {}, 300);
});
`;

let root: string;
let env: Record<string, string>;
let runner: SpareRunner | undefined;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "scv-spare-"));
  env = { SCV_HOME: join(root, "home") };
  writeFileSync(join(root, "stand-in.cjs"), STAND_IN);
  writeFileSync(join(root, "code.js"), "");
});
afterEach(async () => {
  runner?.release();
  runner = undefined;
  await new Promise((resolve) => setTimeout(resolve, 100));
  rmSync(root, { recursive: true, force: true });
});

function spareRunner(): SpareRunner {
  runner = createSpareRunner({
    env,
    cwd: root,
    command: process.execPath,
    args: [join(root, "stand-in.cjs")],
    // A detached process keeps only scv's own variables (os/detached-env.ts).
    spawnEnv: { PATH: process.env.PATH, SCV_TEST_HANDED: join(root, "handed") },
    code: join(root, "code.js"),
  });
  return runner;
}

const turns = () => readdirSync(join(root, "home", "turns")).sort();
const handOff = (input: string) => ({ input, readyWord: "started", readyWithinMs: 10_000 });

async function until(done: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function loadedPid(log: string): Promise<number> {
  await until(() => existsSync(log) && readFileSync(log, "utf8").startsWith("loaded"));
  return Number(readFileSync(log, "utf8").split(" ")[1]);
}

describe("the spare runner", () => {
  it("hands the job to the process loaded ahead of time, whose log becomes the job's; another follows", async () => {
    const spare = spareRunner();
    const pid = await loadedPid(join(root, "home", "turns", `spare.${process.pid}.1.log`));

    const log = join(root, "home", "turns", "codex-aaaaaa.a1b2c3d4.log");
    expect(await spare.hand(handOff('{"job": 1}'), log)).toBe("ready");
    // It ran in the spare, which had loaded before the call.
    expect(readFileSync(join(root, "handed"), "utf8")).toBe(`{"job": 1} ${pid}`);
    expect(readFileSync(log, "utf8")).toBe(`loaded ${pid}\n`);
    await until(() => turns().includes(`spare.${process.pid}.2.log`));
    expect(turns()).toEqual(["codex-aaaaaa.a1b2c3d4.log", `spare.${process.pid}.2.log`]);
  });

  it("discards a spare started before scv's code changed (an upgrade), and one that died", async () => {
    const spare = spareRunner();
    const first = join(root, "home", "turns", `spare.${process.pid}.1.log`);
    const stale = await loadedPid(first);
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, "code.js"), later, later);
    expect(await spare.hand(handOff("{}"), join(root, "home", "turns", "x.log"))).toBeUndefined();
    await until(() => !alive(stale));
    expect(alive(stale)).toBe(false);
    expect(existsSync(first)).toBe(false);

    // Code older than any spare again: only a dead spare is passed over now.
    utimesSync(join(root, "code.js"), new Date(0), new Date(0));
    const killed = await loadedPid(join(root, "home", "turns", `spare.${process.pid}.2.log`));
    process.kill(killed, "SIGKILL");
    await until(() => !alive(killed));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await spare.hand(handOff("{}"), join(root, "home", "turns", "y.log"))).toBeUndefined();
    expect(existsSync(join(root, "handed"))).toBe(false);
    // The one after it takes the job.
    await loadedPid(join(root, "home", "turns", `spare.${process.pid}.3.log`));
    expect(await spare.hand(handOff("{}"), join(root, "home", "turns", "z.log"))).toBe("ready");
  });

  it("a released spare exits and leaves no log", async () => {
    const spare = spareRunner();
    const pid = await loadedPid(join(root, "home", "turns", `spare.${process.pid}.1.log`));
    spare.release();
    await until(() => !alive(pid));
    expect(alive(pid)).toBe(false);
    expect(turns()).toEqual([]);
    expect(await spare.hand(handOff("{}"), join(root, "home", "turns", "z.log"))).toBeUndefined();
    expect(turns()).toEqual([]);
  });
});
