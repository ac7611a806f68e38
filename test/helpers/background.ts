// What the background-turn tests (test/background/*.test.ts) read of a world: its turn files, a
// job's result once written, `scv ps --json`'s rows, and the shapes of handles and jobs.

import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect } from "vitest";
import { useLab } from "./lab.js";
import { killAll } from "./pids.js";
import { scv, type World } from "./scv.js";

/** A fresh world for each test of the calling file (useLab); the pids pushed on the array it returns
 * are SIGKILLed after the test, and a background scv still running (a failed test) is given a moment
 * to end with its agent before the world goes. */
export function useBackgroundLab(take: (world: World) => void): number[] {
  const leftovers: number[] = [];
  useLab(take);
  afterEach(async () => {
    killAll(leftovers.splice(0));
    await new Promise((resolve) => setTimeout(resolve, 50));
  });
  return leftovers;
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
