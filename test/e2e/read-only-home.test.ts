// A read-only SCV_HOME (a bind mount remounted read-only: mounting needs root, so the test is skipped
// otherwise): a turn cannot be registered there, and says so in one line — `--json` and `--events`
// still print the turn's result, with the failure and what to do, and no stack trace anywhere.

import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { turnResultShape } from "../../src/json-shapes.js";
import { useLab } from "../helpers/lab.js";
import { scv, signIn, type World } from "../helpers/scv.js";

const asRoot = process.getuid?.() === 0;

let world: World;
let mounted = false;
useLab((created) => {
  world = created;
  mkdirSync(created.scvHome);
});
afterEach(() => {
  if (mounted) execFileSync("umount", [world.scvHome]);
  mounted = false;
});

/** claude signed in, then SCV_HOME made read-only; `privateModes`: its folders 0700, as scv left them. */
async function readOnlyHome(privateModes: boolean): Promise<void> {
  await signIn(world, "claude");
  if (privateModes) chmodSync(world.scvHome, 0o700);
  execFileSync("mount", ["--bind", world.scvHome, world.scvHome]);
  mounted = true;
  execFileSync("mount", ["-o", "remount,ro,bind", world.scvHome]);
}

describe.skipIf(!asRoot)("a turn on a read-only SCV_HOME", () => {
  it("--json prints the result: the failure, what to do, no fallbacks (exit 1)", async () => {
    await readOnlyHome(true);
    const run = await scv(world, ["delegate", "claude", "--json", "Say hi"]);
    expect(run.exitCode).toBe(1);
    const result = turnResultShape().parse(JSON.parse(run.stdout));
    expect(result.error).toBe(`cannot mkdir ${world.scvHome}/turns (EROFS)`);
    expect(result.hint).toBe("the file system is read-only: set SCV_HOME to a writable folder");
    // Every other agent would meet the same folder.
    expect(result.fallbacks).toEqual([]);
    expect(run.stderr).toBe(
      `scv: cannot mkdir ${world.scvHome}/turns (EROFS) — the file system is read-only: set SCV_HOME to a writable folder\n`,
    );
  });

  it("a home whose mode scv would tighten: one line naming it, never an internal error", async () => {
    await readOnlyHome(false);
    for (const args of [["Say hi"], ["--events", "Say hi"]]) {
      const run = await scv(world, ["delegate", "claude", ...args]);
      expect(run.exitCode).toBe(1);
      expect(run.stderr).toBe(
        `scv: cannot fchmod ${world.scvHome} (EROFS) — the file system is read-only: set SCV_HOME to a writable folder\n`,
      );
      expect(run.stderr).not.toContain("internal error");
      if (args[0] === "--events") expect(JSON.parse(run.stdout.trim()).type).toBe("result");
    }
  });
});
