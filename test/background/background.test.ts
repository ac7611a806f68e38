// Background turns through the built scv: `delegate --background` prints handles at once, `wait`
// prints results as the foreground would and they last until read. A conversation that is running
// refuses another turn: background-busy.test.ts and background-race.test.ts; `ps`, `wait --timeout`
// and `kill`: background-ps.test.ts.

import { existsSync, mkdirSync, rmdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { turnResultShape } from "../../src/json-shapes.js";
import { systemProcessTable } from "../../src/os/processes.js";
import { handleOf, ps, resultWritten, turnFiles, useBackgroundLab } from "../helpers/background.js";
import { agentPids, scv, signIn, type World } from "../helpers/scv.js";

let world: World;
const leftovers = useBackgroundLab((created) => {
  world = created;
});

describe("scv delegate --background", () => {
  it("prints the job at once; scv wait prints the reply as the foreground would, once", async () => {
    await signIn(world, "claude");
    const started = await scv(world, ["delegate", "--background", "claude", "Say hi"], {
      env: { FAKE_AGENT_MODE: "reply" },
    });
    expect(started.exitCode, started.stderr).toBe(0);
    const job = started.stdout.trim();
    expect(job).toMatch(/^claude-[0-9a-z]{6}\.[0-9a-z]{8}$/);
    expect(started.stdout).toBe(`${job}\n`);
    const handle = handleOf(job);

    // By its conversation's handle: that conversation's jobs.
    const waited = await scv(world, ["wait", handle]);
    expect(waited.exitCode).toBe(0);
    expect(waited.stdout).toBe("REPLY Say hi\n");
    expect(waited.stderr).toBe(`conversation: ${handle} — continue with: scv delegate -c ${handle} "…"\n`);
    // Read: gone.
    expect(turnFiles(world)).toEqual([]);
    const again = await scv(world, ["wait", handle]);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toBe(`scv: no turn ${handle} — scv ps lists running turns\n`);

    // The conversation continues like any other, named by its handle or by one of its jobs.
    const next = await scv(world, ["delegate", "-c", handle, "Again"]);
    expect(next.exitCode, next.stderr).toBe(0);
    const byJob = await scv(world, ["delegate", "-c", job, "Again"]);
    expect(byJob.exitCode, byJob.stderr).toBe(0);
  });

  it("keeps a result (0600) until it is read, and --json prints it with the exported schema", async () => {
    const started = await scv(world, ["delegate", "--background", "--json", "gemini", "Say hi"]);
    const row = JSON.parse(started.stdout) as { handle: string; job: string; started: boolean };
    expect(row).toEqual({
      handle: handleOf(row.job),
      job: row.job,
      agent: "gemini",
      started: true,
      result: null,
    });
    const handle = row.handle;
    const done = await resultWritten(world, row.job);
    expect(statSync(done).mode & 0o777).toBe(0o600);
    expect(statSync(join(world.scvHome, "turns")).mode & 0o777).toBe(0o700);

    const waited = await scv(world, ["wait", "--json", row.job]);
    expect(waited.exitCode).toBe(0);
    expect(turnResultShape().parse(JSON.parse(waited.stdout))).toMatchObject({
      reply: "MOCK-REPLY-1",
      status: "completed",
      agent: "gemini",
      conversation: handle,
    });
  });

  it("a continued turn keeps the unread result of an earlier one, without waiting for the record's lock", async () => {
    const started = await scv(world, ["delegate", "--background", "gemini", "Say hi"]);
    const job = started.stdout.trim();
    const handle = handleOf(job);
    const done = await resultWritten(world, job);
    expect(existsSync(done)).toBe(true);
    // A fresh lock on the turn record (a reaper looking at this handle at this moment): with no
    // record left to reap, the turn need not wait for it; under it, registering waits 5 s and fails.
    const lock = join(world.scvHome, "turns", `${handle}.json.lock`);
    mkdirSync(lock);
    const next = await scv(world, ["delegate", "-c", handle, "Again"], { env: { SCV_LOCK_WAIT: "1ms" } });
    expect([next.exitCode, next.stdout]).toEqual([0, "MOCK-REPLY-2\n"]);
    rmdirSync(lock);
    // The earlier job's result, events and log stay until read.
    expect(turnFiles(world)).toEqual([`${job}.done.json`, `${job}.events`, `${job}.log`]);
    const waited = await scv(world, ["wait", handle]);
    expect([waited.exitCode, waited.stdout]).toEqual([0, "MOCK-REPLY-1\n"]);
    expect(turnFiles(world)).toEqual([]);
  });

  it("several agents: one job per line, in order; scv wait prints each under its header", async () => {
    await signIn(world, "claude");
    const started = await scv(world, ["delegate", "--background", "claude", "gemini", "Say hi"], {
      env: { FAKE_AGENT_MODE: "reply" },
    });
    expect(started.exitCode, started.stderr).toBe(0);
    const jobs = started.stdout.trim().split("\n");
    expect(jobs).toHaveLength(2);
    expect(jobs[0]).toMatch(/^claude-/);
    expect(jobs[1]).toMatch(/^gemini-/);

    const waited = await scv(world, ["wait", ...jobs]);
    expect(waited.exitCode).toBe(0);
    // Gemini's capture has no reply to replace: it says its own. Each header names the conversation.
    expect(waited.stdout).toBe(
      `=== claude (${handleOf(jobs[0] ?? "")}) · 1 line ===\nREPLY Say hi\n\n=== gemini (${handleOf(jobs[1] ?? "")}) · 1 line ===\nMOCK-REPLY-1\n`,
    );
  });

  it("a turn that cannot start says why at once, with its exit code, and leaves nothing", async () => {
    const run = await scv(world, ["delegate", "--background", "claude", "Say hi"]);
    expect(run.exitCode).toBe(4);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^scv: claude \(claude-[0-9a-z]{6}\) did not start: .*not signed in/);
    expect(turnFiles(world)).toEqual([]);
  });

  it("outlives the turn whose agent started it: the detached scv does not carry that turn's tag", async () => {
    const started = await scv(world, ["delegate", "--background", "gemini", "Work"], {
      env: { FAKE_AGENT_MODE: "hang", SCV_TURN: "claude-aaaaaa.outer123", SCV_DEPTH: "1" },
    });
    expect(started.exitCode, started.stderr).toBe(0);
    leftovers.push(...(await agentPids(world)));
    expect(systemProcessTable.pidsWithEnv("SCV_TURN", "claude-aaaaaa.outer123")).toEqual([]);
    const [row] = await ps(world);
    expect(row).toMatchObject({ job: started.stdout.trim(), depth: 1 });
    expect((await scv(world, ["kill", started.stdout.trim()])).exitCode).toBe(0);
  });

  it("refuses --events: a background turn streams nowhere", async () => {
    const run = await scv(world, ["delegate", "--background", "--events", "gemini", "Say hi"]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe(
      "scv: --events streams a turn while it runs in the foreground — drop it with --background and read the result with scv wait\n",
    );
  });

  it("a failed turn's exit code comes from scv wait", async () => {
    const started = await scv(world, ["delegate", "--background", "gemini", "Say hi"], {
      env: { FAKE_AGENT_MODE: "exit:1" },
    });
    expect(started.exitCode).toBe(0);
    const waited = await scv(world, ["wait", started.stdout.trim()]);
    expect(waited.exitCode).toBe(1);
    expect(waited.stderr).toMatch(/^scv: gemini failed/);
  });
});
