// A turn in a worktree that is stopped mid-way loses nothing: SIGKILLed, its scv leaves a worktree
// and a branch the next scv records what the agent wrote on (the reaper), a conversation that owns
// them, and one gc removes only once the branch holds nothing unmerged (or with --force); SIGTERMed,
// the turn itself records it. A worktree a turn runs in is never removed.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { gitEnv, gitIn, initRepo, scvInRepo } from "../helpers/git-repo.js";
import { useLab } from "../helpers/lab.js";
import { survivors } from "../helpers/pids.js";
import { ageConversation, agentPids, conversationRecord, signIn, startScv } from "../helpers/scv.js";

const lab = useLab();

const git = (args: readonly string[], cwd?: string) => gitIn(lab.world, args, cwd);

const inRepo = (args: readonly string[], env: Record<string, string> = {}) => scvInRepo(lab.world, args, env);

/** Starts a turn whose agent writes `partial.txt` and hangs, stops scv with `signal` once it did,
 * and returns the conversation's handle (from the one worktree made) and the agent's pids. */
async function stopMidTurn(
  signal: NodeJS.Signals,
  args: readonly string[] = ["delegate", "--worktree", "claude", "write it"],
): Promise<{ handle: string; pids: number[]; exitCode: number | undefined }> {
  const child = startScv(lab.world, args, {
    env: { ...gitEnv(lab.world), FAKE_AGENT_MODE: "write-hang:partial.txt" },
  });
  const pids = await agentPids(lab.world);
  lab.track(pids);
  child.kill(signal);
  const ended = await child;
  const handle = /scv\/(claude-[0-9a-z]{6})/.exec(git(["branch", "--list", "scv/*"]))?.[1] ?? "";
  return { handle, pids, exitCode: ended.exitCode };
}

const age = (handle: string) => ageConversation(lab.world, handle);

describe("a turn in a worktree, stopped mid-way", () => {
  it("SIGKILLed: the next scv commits what the agent wrote; gc keeps the unmerged branch, --force removes it", async () => {
    initRepo(lab.world);
    await signIn(lab.world, "claude");
    const { handle, pids } = await stopMidTurn("SIGKILL");
    const branch = `scv/${handle}`;
    // Nothing recorded it yet: the agent's file is only in the folder.
    expect(git(["log", "--format=%s", branch]).trim()).toBe("initial");

    const ps = await inRepo(["ps"]);
    expect(ps.exitCode).toBe(0);
    expect(await survivors(pids)).toEqual([]);
    expect(git(["show", `${branch}:partial.txt`])).toBe(`claude wrote this in ${handle}\n`);
    const record = conversationRecord(lab.world, handle);
    expect(record).toMatchObject({ lastStatus: "cancelled", worktree: { branch } });
    const dir = (record.worktree as { dir: string }).dir;

    // Old, and its branch holds work nobody merged or applied: gc keeps it all.
    age(handle);
    const kept = await inRepo(["agents", "gc"]);
    expect(kept.exitCode, kept.stderr).toBe(0);
    expect(kept.stderr).toContain(
      `scv: kept ${handle}, its worktree ${dir} and branch ${branch}: its branch holds work neither merged nor applied — scv apply ${handle}, or agents gc --force`,
    );
    expect(existsSync(dir)).toBe(true);
    expect(existsSync(join(lab.world.scvHome, "conversations", `${handle}.json`))).toBe(true);
    const dry = await inRepo(["agents", "gc", "--force", "--dry-run"]);
    expect(dry.stderr).toContain(`scv: would remove worktree ${dir} and branch ${branch}`);
    expect(existsSync(dir)).toBe(true);

    const forced = await inRepo(["agents", "gc", "--force"]);
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect(forced.stderr).toContain(`scv: removed worktree ${dir} and branch ${branch}`);
    expect(existsSync(dir)).toBe(false);
    expect(git(["branch", "--list", "scv/*"])).toBe("");
    expect(git(["worktree", "list"]).trim().split("\n")).toHaveLength(1);
    expect(existsSync(join(lab.world.scvHome, "conversations", `${handle}.json`))).toBe(false);
  });

  it("SIGTERMed: the turn records what was written itself, and gc removes the branch once it is applied", async () => {
    initRepo(lab.world);
    await signIn(lab.world, "claude");
    const { handle, exitCode } = await stopMidTurn("SIGTERM");
    expect(exitCode).toBe(143);
    const branch = `scv/${handle}`;
    expect(git(["log", "--format=%an|%s", branch]).trim().split("\n")[0]).toBe(`scv|${handle}: write it`);

    const applied = await inRepo(["apply", "--commit", handle]);
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect(readFileSync(join(lab.world.project, "partial.txt"), "utf8")).toBe(
      `claude wrote this in ${handle}\n`,
    );
    age(handle);
    const gc = await inRepo(["agents", "gc"]);
    expect(gc.exitCode, gc.stderr).toBe(0);
    expect(gc.stderr).toMatch(new RegExp(`scv: removed worktree .*${handle} and branch ${branch}`));
    expect(git(["branch", "--list", "scv/*"])).toBe("");
  });

  it("is never removed while a turn of it runs", async () => {
    initRepo(lab.world);
    await signIn(lab.world, "claude");
    const first = await inRepo(["delegate", "--worktree", "claude", "--json", "start"], {
      FAKE_AGENT_MODE: "write:notes.txt",
    });
    const { conversation: handle, worktree } = JSON.parse(first.stdout) as {
      conversation: string;
      worktree: string;
    };
    const child = startScv(lab.world, ["delegate", "-c", handle, "go on"], {
      env: { ...gitEnv(lab.world), FAKE_AGENT_MODE: "write-hang:more.txt" },
    });
    lab.track(await agentPids(lab.world));
    const rm = await inRepo(["conversations", "rm", handle]);
    expect(rm.exitCode).not.toBe(0);
    expect(rm.stderr).toMatch(new RegExp(`^scv: conversation ${handle} is busy with job`));
    const apply = await inRepo(["apply", handle]);
    expect(apply.exitCode).toBe(2);
    expect(apply.stderr).toMatch(new RegExp(`^scv: a turn of ${handle} is running in its worktree`));
    expect(existsSync(worktree)).toBe(true);
    child.kill("SIGTERM");
    await child;
    // What the stopped turn wrote is on the branch.
    expect(git(["show", `scv/${handle}:more.txt`])).toContain("claude wrote this");
  });
});
