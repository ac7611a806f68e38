// scv killed with SIGKILL mid-turn, through the built scv: its agent, the agent's grandchild and a
// process that left the group with setsid survive it, and the next scv (any command) ends them all,
// records the turn cancelled, frees the conversation lock the turn held, and never touches a process
// whose pid merely matches. A first turn's conversation, recorded by the next scv, is
// sigkill-first-turn.test.ts (process agents, the background) and sigkill-acp.test.ts (ACP).

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { identify } from "../../src/os/processes.js";
import { turnFiles } from "../helpers/background.js";
import { useLab } from "../helpers/lab.js";
import { isAlive, survivors } from "../helpers/pids.js";
import { conversationRecord, scv, signIn } from "../helpers/scv.js";
import { killScvMidTurn } from "../helpers/sigkill.js";

const lab = useLab();

describe("scv killed with SIGKILL mid-turn", () => {
  it("leaves its agent, a grandchild and a setsid escapee running; the next `scv ps` ends them and shows none", async () => {
    const pids = await killScvMidTurn(lab, ["delegate", "gemini", "Say hi"], "escape");
    expect(pids).toHaveLength(3);
    // Nothing of scv's ran after SIGKILL: they are orphans now.
    expect(pids.filter(isAlive)).toEqual(pids);
    // The turn's record (beside its job's events).
    const [record] = turnFiles(lab.world).filter((name) => !name.endsWith(".events"));
    expect(record).toMatch(/^gemini-[0-9a-z]{6}\.json$/);

    const ps = await scv(lab.world, ["ps"]);
    expect(ps.exitCode).toBe(0);
    expect(ps.stdout).toBe("");
    expect(ps.stderr).toBe("no running turns\n");
    expect(await survivors(pids)).toEqual([]);

    const handle = (record ?? "").replace(/\.json$/, "");
    // Its result is its job's: the conversation's handle and 8 characters.
    const [done] = turnFiles(lab.world);
    expect(done).toMatch(new RegExp(`^${handle}\\.[0-9a-z]{8}\\.done\\.json$`));
    const waited = await scv(lab.world, ["wait", handle]);
    expect(waited.exitCode).toBe(143);
    expect(waited.stderr).toMatch(
      /^scv: the scv running this turn \(pid \d+\) died, and a later scv stopped gemini/,
    );
    expect(turnFiles(lab.world)).toEqual([]);
  });

  it("any command reaps, and a continued conversation's lastStatus says cancelled", async () => {
    await signIn(lab.world, "claude");
    const first = await scv(lab.world, ["delegate", "claude", "Say hi"]);
    const handle = /conversation: (claude-[0-9a-z]{6})/.exec(first.stderr)?.[1] ?? "";
    expect(conversationRecord(lab.world, handle)).toMatchObject({ turns: 1, lastStatus: "completed" });

    const pids = await killScvMidTurn(lab, ["delegate", "-c", handle, "Again"], "grandchild");
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

    const pids = await killScvMidTurn(lab, ["delegate", "-c", handle, "Again"], "grandchild");
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
    expect(turnFiles(lab.world)).toEqual(["gemini-aaaaaa.dead1234.done.json"]);
    expect(pids.filter(isAlive)).toEqual(pids);
  });
});
