// A background turn whose agent fills the disk, on a real full file system (a small tmpfs; mounting
// one needs root, so the test is skipped otherwise): the reserve the turn held from its start takes
// the result, and `scv wait` prints the reply; a reply too big for it becomes one line saying what
// was lost and why — never "the scv running this turn died" with an empty log.

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useLab } from "../helpers/lab.js";
import { scv, signIn, type World } from "../helpers/scv.js";

const asRoot = process.getuid?.() === 0;

let world: World;
let mount = "";
useLab((created) => {
  world = created;
});
beforeEach(() => {
  mount = world.scvHome;
  mkdirSync(mount);
});
afterEach(() => {
  try {
    execFileSync("umount", [mount], { stdio: "ignore" });
  } catch {
    // Not mounted.
  }
});

/** SCV_HOME on a fresh tmpfs of `size`, claude signed in there; the file the agent fills it with.
 * One background turn and its wait run first, so every scv of the case has its code cache: a cache
 * is written as its scv exits, and the launcher's, written while the agent fills the disk, would fail
 * and give its partial file's space back — room a loaded machine's timing decides, not the case. */
async function smallDisk(size: string): Promise<Record<string, string>> {
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size},mode=0700`, "tmpfs", mount]);
  await signIn(world, "claude");
  const env = { FAKE_AGENT_MODE: "reply" };
  const warm = await scv(world, ["delegate", "--background", "claude", "Warm up"], { env });
  expect(warm.exitCode, warm.stderr).toBe(0);
  const warmed = await scv(world, ["wait", warm.stdout.trim()], { env });
  expect(warmed.exitCode, warmed.stderr).toBe(0);
  const caches = readdirSync(join(mount, "cache", "v8"));
  for (const command of ["delegate", "background-turn", "wait"])
    expect(
      caches.some((name) => name.endsWith(`-${command}.bin`)),
      `${command}'s cache in ${caches}`,
    ).toBe(true);
  return { ...env, FAKE_AGENT_FILL: join(mount, "filler") };
}

describe.skipIf(!asRoot)("a background turn on a disk its agent filled", () => {
  it("saves its result from the space it held, and scv wait prints the reply", async () => {
    const env = await smallDisk("8m");
    const started = await scv(world, ["delegate", "--background", "claude", "Say hi"], { env });
    expect(started.exitCode, started.stderr).toBe(0);
    const job = started.stdout.trim();
    const waited = await scv(world, ["wait", "--json", job], { env });
    expect(waited.exitCode, waited.stderr).toBe(0);
    const result = JSON.parse(waited.stdout) as { reply: string; notes: string[] };
    expect(result.reply).toBe("REPLY Say hi");
    expect(result.notes).toContainEqual(
      expect.stringMatching(/^saved from the space scv held for it: ENOSPC/),
    );
    const turns = join(world.scvHome, "turns");
    expect(existsSync(turns) ? readdirSync(turns) : []).toEqual([]);
  });

  it("a reply too big for that space: scv wait says in one line what was lost and why (exit 1)", async () => {
    const env = await smallDisk("8m");
    const prompt = "x".repeat(40_000);
    const started = await scv(world, ["delegate", "--background", "claude", prompt], { env });
    expect(started.exitCode, started.stderr).toBe(0);
    const job = started.stdout.trim();
    const waited = await scv(world, ["wait", job], { env });
    expect(waited.exitCode).toBe(1);
    expect(waited.stdout).toBe("");
    expect(waited.stderr.split("\n")[0]).toMatch(
      new RegExp(
        `^scv: .*the result of job ${job.replace(".", "\\.")} could not be saved whole \\(its reply, 40006 characters, is lost here\\): ENOSPC — free some disk space`,
      ),
    );
    expect(waited.stderr).not.toMatch(/died/);
  });
});

describe.skipIf(!asRoot)("scv wait for a job whose scv could not save its result at all", () => {
  it("reports the line that scv left in the job's log, while the disk still takes nothing", async () => {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", mount]);
    const job = "gemini-aaaaaa.q1w2e3r4";
    const turns = join(mount, "turns");
    mkdirSync(turns, { mode: 0o700 });
    // What the scv left: its running record (its pid long gone) and, as its last word, the line.
    const line = `the result of job ${job} could not be saved: ENOSPC — free some disk space`;
    writeFileSync(join(turns, `${job}.log`), `scv: ${line}\n`);
    writeFileSync(
      join(turns, "gemini-aaaaaa.json"),
      JSON.stringify({
        version: 1,
        handle: "gemini-aaaaaa",
        tag: job,
        agent: "gemini",
        prompt: "Say hi",
        cwd: world.project,
        depth: 0,
        background: true,
        host: hostname(),
        startedAt: new Date().toISOString(),
        scv: { pid: 2 ** 22 + 1, startTime: "1" },
      }),
    );
    try {
      execFileSync("dd", ["if=/dev/zero", `of=${join(mount, "filler")}`, "bs=64k"], { stdio: "ignore" });
    } catch {
      // Full.
    }
    const waited = await scv(world, ["wait", job]);
    expect([waited.exitCode, waited.stdout, waited.stderr]).toEqual([1, "", `scv: ${line}\n`]);
  });
});
