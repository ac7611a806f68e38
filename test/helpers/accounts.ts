// Accounts (`agent@a,b`) in a test's world: an account's home, a fake CLI's mode for one account, two
// signed-in accounts of claude, the reset Claude's captured limit names, a `delegate --json` run.

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { turnResultShape } from "../../src/json-shapes.js";
import { scv, signIn, type World } from "./scv.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures");

/** The agent home of `agent@account`. */
export function accountHome(world: World, agent: string, account: string): string {
  return join(world.scvHome, "agents", `${agent}@${account}`);
}

/** Sets the fake CLI's mode in one account's home (every run, or the next one only). */
export function modeFor(world: World, agent: string, account: string, mode: string, once = false): void {
  mkdirSync(accountHome(world, agent, account), { recursive: true, mode: 0o700 });
  writeFileSync(join(accountHome(world, agent, account), once ? ".fake-mode-once" : ".fake-mode"), mode);
}

/** claude@work and claude@personal signed in, work's CLI in `workMode` (Claude's usage limit: a ladder
 * of the two moves on to personal). */
export async function workAndPersonal(world: World, workMode = "fixture:usage-limit"): Promise<void> {
  await signIn(world, "claude", "work");
  await signIn(world, "claude", "personal");
  modeFor(world, "claude", "work", workMode);
}

/** The reset Claude's captured limit names (test/fixtures/claude/usage-limit.stdout: its
 * rate_limit_event's resetsAt, epoch seconds). */
export function claudeReset(): string {
  const text = readFileSync(join(FIXTURES, "claude", "usage-limit.stdout"), "utf8");
  const epoch = Number(/"resetsAt":(\d+)/.exec(text)?.[1]);
  return new Date(epoch * 1000).toISOString();
}

/** `scv delegate --json …` in the world: the run and its parsed result. */
export async function delegateJson(world: World, args: readonly string[]) {
  const run = await scv(world, ["delegate", "--json", ...args]);
  return { run, result: turnResultShape().parse(JSON.parse(run.stdout)) };
}
