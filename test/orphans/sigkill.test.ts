// scv killed with SIGKILL mid-turn, through the built scv: its agent, the agent's grandchild and a
// process that left the group with setsid survive it, and the next scv (any command) ends them all,
// records the turn cancelled, frees the conversation lock the turn held, and never touches a process
// whose pid merely matches.

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { identify } from "../../src/os/processes.js";
import { useLab } from "../helpers/lab.js";
import { isAlive, survivors } from "../helpers/pids.js";
import {
  agentPids,
  conversationRecord,
  geminiStarts,
  installGeminiBoth,
  scv,
  signIn,
  startScv,
} from "../helpers/scv.js";

const lab = useLab();

function turnFiles(): string[] {
  const dir = join(lab.world.scvHome, "turns");
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

/** Starts a turn, waits for its agent's pids, SIGKILLs scv and waits for it to be gone. */
async function killScvMidTurn(args: readonly string[], mode: string): Promise<number[]> {
  const child = startScv(lab.world, args, { env: { FAKE_AGENT_MODE: mode } });
  const pids = await agentPids(lab.world);
  lab.track(pids);
  child.kill("SIGKILL");
  await child;
  return pids;
}

describe("scv killed with SIGKILL mid-turn", () => {
  it("leaves its agent, a grandchild and a setsid escapee running; the next `scv ps` ends them and shows none", async () => {
    const pids = await killScvMidTurn(["delegate", "gemini", "Say hi"], "escape");
    expect(pids).toHaveLength(3);
    // Nothing of scv's ran after SIGKILL: they are orphans now.
    expect(pids.filter(isAlive)).toEqual(pids);
    // The turn's record (beside its job's events).
    const [record] = turnFiles().filter((name) => !name.endsWith(".events"));
    expect(record).toMatch(/^gemini-[0-9a-z]{6}\.json$/);

    const ps = await scv(lab.world, ["ps"]);
    expect(ps.exitCode).toBe(0);
    expect(ps.stdout).toBe("");
    expect(ps.stderr).toBe("no running turns\n");
    expect(await survivors(pids)).toEqual([]);

    const handle = (record ?? "").replace(/\.json$/, "");
    // Its result is its job's: the conversation's handle and 8 characters.
    const [done] = turnFiles();
    expect(done).toMatch(new RegExp(`^${handle}\\.[0-9a-z]{8}\\.done\\.json$`));
    const waited = await scv(lab.world, ["wait", handle]);
    expect(waited.exitCode).toBe(143);
    expect(waited.stderr).toMatch(
      /^scv: the scv running this turn \(pid \d+\) died, and a later scv stopped gemini/,
    );
    expect(turnFiles()).toEqual([]);
  });

  it("any command reaps, and a continued conversation's lastStatus says cancelled", async () => {
    await signIn(lab.world, "claude");
    const first = await scv(lab.world, ["delegate", "claude", "Say hi"]);
    const handle = /conversation: (claude-[0-9a-z]{6})/.exec(first.stderr)?.[1] ?? "";
    expect(conversationRecord(lab.world, handle)).toMatchObject({ turns: 1, lastStatus: "completed" });

    const pids = await killScvMidTurn(["delegate", "-c", handle, "Again"], "grandchild");
    const list = await scv(lab.world, ["conversations", "list", "--json"]);
    expect(list.exitCode).toBe(0);
    expect(await survivors(pids)).toEqual([]);
    expect(conversationRecord(lab.world, handle)).toMatchObject({ turns: 1, lastStatus: "cancelled" });
  });

  it("frees the conversation lock of the killed turn: the conversation continues at once, not after it goes stale", async () => {
    await signIn(lab.world, "claude");
    const first = await scv(lab.world, ["delegate", "claude", "Say hi"]);
    const handle = /conversation: (claude-[0-9a-z]{6})/.exec(first.stderr)?.[1] ?? "";
    const lock = join(lab.world.scvHome, "conversations", `${handle}.json.lock`);

    const pids = await killScvMidTurn(["delegate", "-c", handle, "Again"], "grandchild");
    // SIGKILL ran no cleanup: the lock stays, fresh for another 30 s.
    expect(existsSync(lock)).toBe(true);
    // A lock wait of 1 ms: a lock still there would make this turn fail "conversation busy" (exit 2).
    const next = await scv(lab.world, ["delegate", "-c", handle, "And again"], {
      env: { SCV_LOCK_WAIT: "1ms" },
    });
    expect(next.stderr).not.toMatch(/busy/);
    expect(next.exitCode).toBe(0);
    expect(next.stdout).toMatch(/\S/);
    expect(await survivors(pids)).toEqual([]);
    expect(conversationRecord(lab.world, handle)).toMatchObject({ turns: 2, lastStatus: "completed" });
    expect(existsSync(lock)).toBe(false);
  });

  it("never signals a process whose pid was reused: only the recorded start time counts", async () => {
    // A stranger that now holds the recorded agent pid, and one carrying a tag of no dead turn.
    const stranger = spawn("sleep", ["30"], { stdio: "ignore" });
    const tagged = spawn("sleep", ["30"], {
      stdio: "ignore",
      env: { ...process.env, SCV_TURN: "gemini-bbbbbb.alive999" },
    });
    const pids = [stranger.pid ?? -1, tagged.pid ?? -1];
    lab.track(pids);
    const real = identify(stranger.pid ?? -1);
    expect(real).toBeDefined();
    mkdirSync(join(lab.world.scvHome, "turns"), { recursive: true });
    writeFileSync(
      join(lab.world.scvHome, "turns", "gemini-aaaaaa.json"),
      JSON.stringify({
        version: 1,
        handle: "gemini-aaaaaa",
        tag: "gemini-aaaaaa.dead1234",
        agent: "gemini",
        prompt: "Say hi",
        cwd: lab.world.project,
        depth: 0,
        background: false,
        host: hostname(),
        startedAt: new Date().toISOString(),
        // No process has start time 1.
        scv: { pid: process.pid, startTime: "1" },
        agentProcess: { pid: stranger.pid, startTime: `${real?.startTime}9` },
      }),
    );
    const ps = await scv(lab.world, ["ps"]);
    expect(ps.exitCode).toBe(0);
    expect(turnFiles()).toEqual(["gemini-aaaaaa.dead1234.done.json"]);
    expect(pids.filter(isAlive)).toEqual(pids);
  });
});

/** The running record of `handle`'s turn, once it names the agent's session (bounded: a turn whose
 * record never does is killed all the same, and the test's own checks then fail). */
async function sessionInRecord(handle: string): Promise<string | undefined> {
  const path = join(lab.world.scvHome, "turns", `${handle}.json`);
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
async function runningHandle(): Promise<string> {
  for (const until = Date.now() + 20_000; Date.now() < until; ) {
    const [record] = turnFiles().filter((name) => /^[a-z-]+-[0-9a-z]{6}\.json$/.test(name));
    if (record !== undefined) return record.replace(/\.json$/, "");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("no running turn");
}

/** After a reaping scv: the conversation a killed first turn started, recorded cancelled with its
 * session and transport, so that it can be continued, listed, and its files found by rm and gc. */
async function expectReapedConversation(handle: string, transport: "process" | "acp"): Promise<string> {
  const list = await scv(lab.world, ["conversations", "list", "--json"]);
  expect(list.exitCode, list.stderr).toBe(0);
  expect(list.stdout).toContain(handle);
  const record = conversationRecord(lab.world, handle);
  expect(record).toMatchObject({ handle, transport, turns: 1, lastStatus: "cancelled" });
  expect(record.sessionId).toEqual(expect.any(String));
  const waited = await scv(lab.world, ["wait", handle]);
  expect(waited.exitCode).toBe(143);
  expect(waited.stderr).toContain(`continue the conversation: scv delegate -c ${handle} "…"`);
  return String(record.sessionId);
}

describe("a first turn whose scv was SIGKILLed", () => {
  it.each(["gemini", "codex"])(
    "%s over process: the next scv records its conversation, which continues in the same session",
    async (agent) => {
      await signIn(lab.world, agent);
      const child = startScv(lab.world, ["delegate", agent, "Say hi"], {
        env: { FAKE_AGENT_MODE: "start-hang" },
      });
      const handle = await runningHandle();
      lab.track(await agentPids(lab.world));
      const seen = await sessionInRecord(handle);
      child.kill("SIGKILL");
      await child;
      const session = await expectReapedConversation(handle, "process");
      expect(session).toBe(seen);
      const next = await scv(lab.world, ["delegate", "-c", handle, "--json", "Again"]);
      expect(next.exitCode, next.stderr).toBe(0);
      expect(JSON.parse(next.stdout)).toMatchObject({ conversation: handle, session });
    },
  );

  it.each([
    ["cold", '[defaults]\nsession_idle = "0"\n'],
    ["warm", ""],
  ])("over ACP (%s): its conversation is recorded and continues through session/load", async (_, config) => {
    installGeminiBoth(lab.world);
    writeFileSync(join(lab.world.root, "config.toml"), config);
    lab.world.env.SCV_CONFIG = join(lab.world.root, "config.toml");
    const child = startScv(lab.world, ["delegate", "gemini", "--transport", "acp", "hang on"]);
    const handle = await runningHandle();
    const seen = await sessionInRecord(handle);
    const hostRecord = join(lab.world.scvHome, "hosts", `${handle}.json`);
    const host = existsSync(hostRecord)
      ? (JSON.parse(readFileSync(hostRecord, "utf8")) as { scv: { pid: number } }).scv.pid
      : undefined;
    lab.track([...geminiStarts(lab.world).map((start) => start.pid), ...(host === undefined ? [] : [host])]);
    child.kill("SIGKILL");
    await child;
    const session = await expectReapedConversation(handle, "acp");
    expect(session).toBe(seen);
    // The reaper ended the server (and so a warm one's host): the next turn loads the session.
    expect(await survivors(geminiStarts(lab.world).map((start) => start.pid))).toEqual([]);
    const next = await scv(lab.world, ["delegate", "-c", handle, "--json", "Again"]);
    expect(next.exitCode, next.stderr).toBe(0);
    expect(JSON.parse(next.stdout)).toMatchObject({ conversation: handle, session });
    lab.track([...geminiStarts(lab.world).map((start) => start.pid)]);
    await scv(lab.world, ["kill", handle]);
  });

  it("in the background: the job's result names the conversation the next scv recorded", async () => {
    const started = await scv(lab.world, ["delegate", "--background", "gemini", "Say hi"], {
      env: { FAKE_AGENT_MODE: "start-hang" },
    });
    expect(started.exitCode, started.stderr).toBe(0);
    const handle = await runningHandle();
    lab.track(await agentPids(lab.world));
    await sessionInRecord(handle);
    const runner = (
      JSON.parse(readFileSync(join(lab.world.scvHome, "turns", `${handle}.json`), "utf8")) as {
        scv: { pid: number };
      }
    ).scv.pid;
    process.kill(runner, "SIGKILL");
    expect(await survivors([runner])).toEqual([]);
    await expectReapedConversation(handle, "process");
  });
});
