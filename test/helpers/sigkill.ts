// A turn whose scv was SIGKILLed (test/orphans/sigkill*.test.ts): killing scv mid-turn, the running
// turn's handle and the session its record names, and what the next scv made of the dead turn's
// conversation.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { turnFiles } from "./background.js";
import type { Lab } from "./lab.js";
import { agentPids, conversationRecord, scv, startScv, type World } from "./scv.js";

/** Starts a turn, waits for its agent's pids (tracked), SIGKILLs scv and waits for it to be gone. */
export async function killScvMidTurn(lab: Lab, args: readonly string[], mode: string): Promise<number[]> {
  const child = startScv(lab.world, args, { env: { FAKE_AGENT_MODE: mode } });
  const pids = await agentPids(lab.world);
  lab.track(pids);
  child.kill("SIGKILL");
  await child;
  return pids;
}

/** The running record of `handle`'s turn, once it names the agent's session (bounded: a turn whose
 * record never does is killed all the same, and the test's own checks then fail). */
export async function sessionInRecord(world: World, handle: string): Promise<string | undefined> {
  const path = join(world.scvHome, "turns", `${handle}.json`);
  for (const until = Date.now() + 5_000; Date.now() < until; ) {
    try {
      const session = (JSON.parse(readFileSync(path, "utf8")) as { session?: string }).session;
      if (session !== undefined) return session;
    } catch {
      // not written yet
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return undefined;
}

/** The handle of the one running turn. */
export async function runningHandle(world: World): Promise<string> {
  for (const until = Date.now() + 20_000; Date.now() < until; ) {
    const [record] = turnFiles(world).filter((name) => /^[a-z-]+-[0-9a-z]{6}\.json$/.test(name));
    if (record !== undefined) return record.replace(/\.json$/, "");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("no running turn");
}

/** After a reaping scv: the conversation a killed first turn started, recorded cancelled with its
 * session and transport, so that it can be continued, listed, and its files found by rm and gc. */
export async function expectReapedConversation(
  world: World,
  handle: string,
  transport: "process" | "acp",
): Promise<string> {
  const list = await scv(world, ["conversations", "list", "--json"]);
  expect(list.exitCode, list.stderr).toBe(0);
  expect(list.stdout).toContain(handle);
  const record = conversationRecord(world, handle);
  expect(record).toMatchObject({ handle, transport, turns: 1, lastStatus: "cancelled" });
  expect(record.sessionId).toEqual(expect.any(String));
  const waited = await scv(world, ["wait", handle]);
  expect(waited.exitCode).toBe(143);
  expect(waited.stderr).toContain(`continue the conversation: scv delegate -c ${handle} "…"`);
  return String(record.sessionId);
}
