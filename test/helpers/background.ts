// What the background-turn tests (test/background/*.test.ts) read of a world: its turn files, a
// job's result once written, `scv ps --json`'s rows, and the shapes of handles and jobs.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect } from "vitest";
import { useLab } from "./lab.js";
import { killAll, survivors } from "./pids.js";
import { scv, type World } from "./scv.js";

/** A fresh world for each test of the calling file (useLab); the pids pushed on the array it returns
 * are SIGKILLed after the test, and a background scv still running (a failed test) ends with its agent
 * before the world goes: the world waits for it (bounded), not for a moment. */
export function useBackgroundLab(take: (world: World) => void): number[] {
  const leftovers: number[] = [];
  let world: World | undefined;
  useLab((created) => {
    world = created;
    take(created);
  });
  afterEach(async () => {
    killAll(leftovers.splice(0));
    if (world !== undefined) await survivors(runningScvPids(world));
  });
  return leftovers;
}

/** The pids of the scvs whose running records are in the world's turns folder. */
function runningScvPids(world: World): number[] {
  return turnFiles(world)
    .filter((name) => /^[^.]+\.json$/.test(name))
    .flatMap((name) => {
      try {
        const record = JSON.parse(readFileSync(join(world.scvHome, "turns", name), "utf8")) as {
          scv?: { pid?: unknown };
        };
        return typeof record.scv?.pid === "number" ? [record.scv.pid] : [];
      } catch {
        return [];
      }
    });
}

/** The files of scv's turns folder, sorted. */
export function turnFiles(world: World): string[] {
  const dir = join(world.scvHome, "turns");
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

export const HANDLE = /^[a-z-]+-[0-9a-z]{6}$/;
export const JOB = /^[a-z-]+-[0-9a-z]{6}\.[0-9a-z]{8}$/;

/** A job's conversation. */
export const handleOf = (job: string) => job.replace(/\.[0-9a-z]{8}$/, "");

/** The path of a background job's result, once its runner has written it (up to 20 s). */
export async function resultWritten(world: World, job: string): Promise<string> {
  const done = join(world.scvHome, "turns", `${job}.done.json`);
  const deadline = Date.now() + 20_000;
  while (!existsSync(done) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return done;
}

export interface PsRow {
  handle: string;
  job: string;
  agent: string;
  pid: number | null;
  scvPid: number;
  elapsedMs: number;
  tool: string | null;
  background: boolean;
  depth: number;
}

/** `scv ps --json`'s rows. */
export async function ps(world: World): Promise<PsRow[]> {
  const run = await scv(world, ["ps", "--json"]);
  expect(run.exitCode, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as PsRow[];
}
