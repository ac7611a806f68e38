// Background turns through the built scv: `delegate --background` prints handles at once, `ps`
// lists running turns, `wait` prints results as the foreground would and they last until read,
// `kill` stops one with its whole process group.

import { existsSync, mkdirSync, readdirSync, rmdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { turnResultShape } from "../../src/json-shapes.js";
import { systemProcessTable } from "../../src/os/processes.js";
import { useLab } from "../helpers/lab.js";
import { killAll, survivors } from "../helpers/pids.js";
import { agentPids, scv, signIn, startScv, type World } from "../helpers/scv.js";

let world: World;
const leftovers: number[] = [];
useLab((created) => {
  world = created;
});
afterEach(async () => {
  killAll(leftovers.splice(0));
  // A background scv still running (a failed test) ends with its agent; give it a moment.
  await new Promise((resolve) => setTimeout(resolve, 50));
});

function turnFiles(): string[] {
  const dir = join(world.scvHome, "turns");
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

const HANDLE = /^[a-z-]+-[0-9a-z]{6}$/;
const JOB = /^[a-z-]+-[0-9a-z]{6}\.[0-9a-z]{8}$/;

/** A job's conversation. */
const handleOf = (job: string) => job.replace(/\.[0-9a-z]{8}$/, "");

/** The path of a background job's result, once its runner has written it (up to 20 s). */
async function resultWritten(job: string): Promise<string> {
  const done = join(world.scvHome, "turns", `${job}.done.json`);
  const deadline = Date.now() + 20_000;
  while (!existsSync(done) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return done;
}

interface PsRow {
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

async function ps(): Promise<PsRow[]> {
  const run = await scv(world, ["ps", "--json"]);
  expect(run.exitCode, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as PsRow[];
}

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
    expect(turnFiles()).toEqual([]);
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
    const done = await resultWritten(row.job);
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
    const done = await resultWritten(job);
    expect(existsSync(done)).toBe(true);
    // A fresh lock on the turn record (a reaper looking at this handle at this moment): with no
    // record left to reap, the turn need not wait for it; under it, registering waits 5 s and fails.
    const lock = join(world.scvHome, "turns", `${handle}.json.lock`);
    mkdirSync(lock);
    const next = await scv(world, ["delegate", "-c", handle, "Again"], { env: { SCV_LOCK_WAIT: "1ms" } });
    expect([next.exitCode, next.stdout]).toEqual([0, "MOCK-REPLY-2\n"]);
    rmdirSync(lock);
    // The earlier job's result, events and log stay until read.
    expect(turnFiles()).toEqual([`${job}.done.json`, `${job}.events`, `${job}.log`]);
    const waited = await scv(world, ["wait", handle]);
    expect([waited.exitCode, waited.stdout]).toEqual([0, "MOCK-REPLY-1\n"]);
    expect(turnFiles()).toEqual([]);
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
    expect(turnFiles()).toEqual([]);
  });

  it("outlives the turn whose agent started it: the detached scv does not carry that turn's tag", async () => {
    const started = await scv(world, ["delegate", "--background", "gemini", "Work"], {
      env: { FAKE_AGENT_MODE: "hang", SCV_TURN: "claude-aaaaaa.outer123", SCV_DEPTH: "1" },
    });
    expect(started.exitCode, started.stderr).toBe(0);
    leftovers.push(...(await agentPids(world)));
    expect(systemProcessTable.pidsWithEnv("SCV_TURN", "claude-aaaaaa.outer123")).toEqual([]);
    const [row] = await ps();
    expect(row).toMatchObject({ job: started.stdout.trim(), depth: 1 });
    expect((await scv(world, ["kill", started.stdout.trim()])).exitCode).toBe(0);
  });

  it("a second turn of a conversation that is running refuses at once: exit 2, naming the job to wait for", async () => {
    await signIn(world, "claude");
    const first = await scv(world, ["delegate", "--json", "claude", "Say hi"]);
    const handle = (JSON.parse(first.stdout) as { conversation: string }).conversation;
    const running = await scv(world, ["delegate", "--background", "-c", handle, "Long"], {
      env: { FAKE_AGENT_MODE: "hang" },
    });
    const job = running.stdout.trim();
    expect(handleOf(job)).toBe(handle);
    leftovers.push(...(await agentPids(world)));
    const second = await scv(world, ["delegate", "--background", "-c", handle, "Again"]);
    expect(second.exitCode).toBe(2);
    expect(second.stderr).toBe(
      `scv: claude (${handle}) did not start: conversation ${handle} is busy with job ${job} — wait for it: scv wait ${job}\n`,
    );
    expect((await scv(world, ["kill", job])).exitCode).toBe(0);
    expect((await scv(world, ["wait", job])).exitCode).toBe(143);
  });

  it("busy with a foreground turn, the refusal does not send the user to scv wait", async () => {
    await signIn(world, "claude");
    const first = await scv(world, ["delegate", "--json", "claude", "Say hi"]);
    const handle = (JSON.parse(first.stdout) as { conversation: string }).conversation;
    const foreground = startScv(world, ["delegate", "-c", handle, "Long"], {
      env: { FAKE_AGENT_MODE: "hang" },
    });
    leftovers.push(...(await agentPids(world)));
    const second = await scv(world, ["delegate", "--background", "-c", handle, "Again"]);
    expect(second.exitCode).toBe(2);
    expect(second.stderr).toMatch(
      new RegExp(
        `^scv: claude \\(${handle}\\) did not start: conversation ${handle} is busy with job ${handle}\\.[0-9a-z]{8}, in the foreground of scv pid \\d+ — continue it once that ends, or stop it: scv kill ${handle}\\.[0-9a-z]{8}\n$`,
      ),
    );
    expect((await scv(world, ["kill", handle])).exitCode).toBe(0);
    expect((await foreground).exitCode).toBe(143);
  });

  it("simultaneous continues of one conversation: each is refused as busy or its own reply is kept for its own job", async () => {
    await signIn(world, "claude");
    const first = await scv(world, ["delegate", "--json", "claude", "Say hi"]);
    const handle = (JSON.parse(first.stdout) as { conversation: string }).conversation;
    const count = 5;
    const launches = await Promise.all(
      Array.from({ length: count }, (_, index) =>
        scv(world, ["delegate", "--background", "--json", "-c", handle, `turn ${index}`], {
          env: { FAKE_AGENT_MODE: "reply" },
        }),
      ),
    );
    const started: { job: string; prompt: string }[] = [];
    for (const [index, launch] of launches.entries()) {
      const row = JSON.parse(launch.stdout) as {
        job: string | null;
        started: boolean;
        result?: { error: string };
      };
      if (row.started) {
        expect(launch.exitCode, launch.stderr).toBe(0);
        expect(row.job ?? "").toMatch(JOB);
        started.push({ job: row.job ?? "", prompt: `turn ${index}` });
      } else {
        // Refused before it said started: exit 2, one line naming the job that holds the conversation.
        expect(launch.exitCode).toBe(2);
        expect(launch.stderr).toMatch(
          new RegExp(
            `^scv: claude \\(${handle}\\) did not start: conversation ${handle} is busy with job ${handle}\\.[0-9a-z]{8} — wait for it: scv wait ${handle}\\.[0-9a-z]{8}\n$`,
          ),
        );
      }
    }
    expect(started.length).toBeGreaterThan(0);
    expect(new Set(started.map((each) => each.job)).size).toBe(started.length);
    for (const each of started) await resultWritten(each.job);
    // Reading one job's result leaves every other's.
    for (const [index, each] of started.entries()) {
      const waited = await scv(world, ["wait", each.job]);
      expect([waited.exitCode, waited.stdout]).toEqual([0, `REPLY ${each.prompt}\n`]);
      for (const other of started.slice(index + 1)) expect(turnFiles()).toContain(`${other.job}.done.json`);
    }
    expect(turnFiles()).toEqual([]);
  }, 60_000);

  it("simultaneous continues while a long turn holds the conversation: one runs, the others are refused within 2 s", async () => {
    await signIn(world, "claude");
    const first = await scv(world, ["delegate", "--json", "claude", "Say hi"]);
    const handle = (JSON.parse(first.stdout) as { conversation: string }).conversation;
    const launches = await Promise.all(
      Array.from({ length: 4 }, (_, index) =>
        scv(world, ["delegate", "--background", "-c", handle, `turn ${index}`], {
          env: { FAKE_AGENT_MODE: "hang", SCV_LOCK_WAIT: "60s" },
        }),
      ),
    );
    leftovers.push(...(await agentPids(world)));
    const ran = launches.filter((launch) => launch.exitCode === 0);
    expect(ran).toHaveLength(1);
    const job = ran[0]?.stdout.trim() ?? "";
    for (const launch of launches.filter((each) => each.exitCode !== 0)) {
      expect([launch.exitCode, launch.stdout, launch.stderr]).toEqual([
        2,
        "",
        `scv: claude (${handle}) did not start: conversation ${handle} is busy with job ${job} — wait for it: scv wait ${job}\n`,
      ]);
    }
    // Nothing of the refused ones is left but the running job's record, events, log and reserve.
    expect(turnFiles()).toEqual([`${job}.events`, `${job}.log`, `${job}.reserve`, `${handle}.json`].sort());
    expect((await scv(world, ["kill", handle])).exitCode).toBe(0);
    expect((await scv(world, ["wait", handle])).exitCode).toBe(143);
  }, 60_000);

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

describe("--json of scv ps and scv wait", () => {
  // Characters a terminal acts on or hides that JSON.stringify leaves raw: DEL, C1, bidi, line separator.
  const HOSTILE = "hi \u202eevil\u2066 \u009b31m \x7f \u2028 done";
  const RAW = ["\u202e", "\u2066", "\u009b", "\x7f", "\u2028"];

  it("writes what an agent wrote with those characters as \\u escapes, the same JSON value", async () => {
    await signIn(world, "claude");
    const hanging = await scv(world, ["delegate", "--background", "claude", "Work"], {
      env: { FAKE_AGENT_MODE: "tool-hang", FAKE_AGENT_TOOL_COMMAND: `echo ${HOSTILE}` },
    });
    expect(hanging.exitCode, hanging.stderr).toBe(0);
    leftovers.push(...(await agentPids(world)));
    const deadline = Date.now() + 10_000;
    let listed = await scv(world, ["ps", "--json"]);
    while (!listed.stdout.includes("evil") && Date.now() < deadline)
      listed = await scv(world, ["ps", "--json"]);
    for (const raw of RAW) expect(listed.stdout.includes(raw), `ps ${JSON.stringify(raw)}`).toBe(false);
    // (The tool summary itself already made the line separator a space.)
    expect((JSON.parse(listed.stdout) as PsRow[])[0]?.tool).toBe(
      "$ echo hi \u202eevil\u2066 \u009b31m \x7f done",
    );
    const handle = hanging.stdout.trim();
    expect((await scv(world, ["kill", handle])).exitCode).toBe(0);
    await scv(world, ["wait", handle]);

    const started = await scv(world, ["delegate", "--background", "claude", "claude", HOSTILE], {
      env: { FAKE_AGENT_MODE: "reply" },
    });
    expect(started.exitCode, started.stderr).toBe(0);
    const handles = started.stdout.trim().split("\n");
    const waited = await scv(world, ["wait", "--json", ...handles]);
    expect(waited.exitCode, waited.stderr).toBe(0);
    for (const raw of RAW) expect(waited.stdout.includes(raw), `wait ${JSON.stringify(raw)}`).toBe(false);
    const results = JSON.parse(waited.stdout) as { reply: string }[];
    expect(results.map((result) => result.reply)).toEqual([`REPLY ${HOSTILE}`, `REPLY ${HOSTILE}`]);
  });
});

describe("scv ps, scv wait --timeout, scv kill", () => {
  it("lists a running turn with its agent's pid and current tool; wait --timeout exits 124 and keeps it; kill ends its group", async () => {
    await signIn(world, "claude");
    const started = await scv(world, ["delegate", "--background", "claude", "Work"], {
      env: { FAKE_AGENT_MODE: "tool-hang" },
    });
    expect(started.exitCode, started.stderr).toBe(0);
    const job = started.stdout.trim();
    const handle = handleOf(job);
    const [agent] = await agentPids(world);
    leftovers.push(agent ?? -1);

    const rows = await ps();
    expect(rows).toMatchObject([{ handle, job, agent: "claude", pid: agent, background: true }]);
    // The tool line arrives with the stream; the record follows it.
    const deadline = Date.now() + 10_000;
    let tool = rows[0]?.tool;
    while (tool !== "$ echo step 1" && Date.now() < deadline) tool = (await ps())[0]?.tool;
    expect(tool).toBe("$ echo step 1");
    const text = await scv(world, ["ps"]);
    expect(text.stdout).toMatch(
      new RegExp(
        `^JOB +AGENT +ACCOUNT +PID +ELAPSED +TOKENS +STATE +TOOL\n${job} +claude +default +${agent} +\\S+ +- +running +\\$ echo step 1\n$`,
      ),
    );

    const waited = await scv(world, ["wait", "--timeout", "300ms", handle]);
    expect(waited.exitCode).toBe(124);
    expect(waited.stderr).toBe(
      `scv: still running after 300ms: ${job} — wait again later, or stop one: scv kill <job>\n`,
    );

    const killed = await scv(world, ["kill", job]);
    expect(killed.exitCode, killed.stderr).toBe(0);
    expect(killed.stderr).toBe(`stopped ${job} — its result: scv wait ${job}\n`);
    expect(await survivors([agent ?? -1])).toEqual([]);
    expect(await ps()).toEqual([]);

    const result = await scv(world, ["wait", handle]);
    expect(result.exitCode).toBe(143);
    expect(result.stderr).toContain("scv: claude was stopped by scv kill\n");
  });

  it("kill ends the agent's grandchild and a process that left its group", async () => {
    const started = await scv(world, ["delegate", "--background", "gemini", "Work"], {
      env: { FAKE_AGENT_MODE: "escape" },
    });
    const handle = handleOf(started.stdout.trim());
    expect(handle).toMatch(HANDLE);
    const pids = await agentPids(world);
    leftovers.push(...pids);
    const killed = await scv(world, ["kill", handle]);
    expect(killed.exitCode, killed.stderr).toBe(0);
    expect(await survivors(pids)).toEqual([]);
  });

  it("says what is wrong with a job or handle: malformed, unknown, finished", async () => {
    expect((await scv(world, ["kill", "nope"])).stderr).toBe(
      "scv: 'nope' is not a job or a conversation handle (like codex-k3f9x2.a1b2c3d4 or codex-k3f9x2) — scv ps lists them\n",
    );
    const unknownJob = await scv(world, ["wait", "codex-aaaaaa.bbbbbbbb"]);
    expect([unknownJob.exitCode, unknownJob.stderr]).toEqual([
      2,
      "scv: no job codex-aaaaaa.bbbbbbbb — its result was read already, or it never ran (scv ps lists running turns)\n",
    ]);
    const unknown = await scv(world, ["kill", "codex-aaaaaa"]);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toBe("scv: no running turn codex-aaaaaa — scv ps lists them\n");
    const started = await scv(world, ["delegate", "--background", "gemini", "Say hi"]);
    const job = started.stdout.trim();
    await resultWritten(job);
    expect((await scv(world, ["kill", job])).stderr).toBe(
      `scv: turn ${job} has ended already — read its result: scv wait ${job}\n`,
    );
    const handle = handleOf(job);
    expect((await scv(world, ["kill", handle])).stderr).toBe(
      `scv: turn ${handle} has ended already — read its result: scv wait ${handle}\n`,
    );
  });

  it("wait refuses a turn running in another scv's foreground", async () => {
    const child = startScv(world, ["delegate", "gemini", "Work"], {
      env: { FAKE_AGENT_MODE: "hang" },
    });
    leftovers.push(...(await agentPids(world)));
    const [row] = await ps();
    expect(row?.background).toBe(false);
    const waited = await scv(world, ["wait", row?.handle ?? ""]);
    expect(waited.exitCode).toBe(2);
    expect(waited.stderr).toBe(
      `scv: ${row?.handle} runs in the foreground of scv pid ${row?.scvPid}, which prints its result — only --background turns can be waited for\n`,
    );
    // By its job too.
    expect((await scv(world, ["wait", row?.job ?? ""])).stderr).toBe(
      `scv: ${row?.job} runs in the foreground of scv pid ${row?.scvPid}, which prints its result — only --background turns can be waited for\n`,
    );
    // scv kill stops one turn of another scv; that scv reports it.
    expect((await scv(world, ["kill", row?.job ?? ""])).exitCode).toBe(0);
    const result = await child;
    expect(result.exitCode).toBe(143);
    expect(String(result.stderr)).toContain("scv: gemini was stopped by scv kill");
  });
});
