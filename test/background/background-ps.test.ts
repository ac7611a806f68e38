// Background turns through the built scv: `ps` lists running turns (its --json escapes what an agent
// wrote), `wait --timeout` keeps a turn, `kill` stops one with its whole process group.

import { describe, expect, it } from "vitest";
import { HANDLE, handleOf, type PsRow, ps, resultWritten, useBackgroundLab } from "../helpers/background.js";
import { survivors } from "../helpers/pids.js";
import { agentPids, scv, signIn, startScv, type World } from "../helpers/scv.js";

let world: World;
const leftovers = useBackgroundLab((created) => {
  world = created;
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

    const rows = await ps(world);
    expect(rows).toMatchObject([{ handle, job, agent: "claude", pid: agent, background: true }]);
    // The tool line arrives with the stream; the record follows it.
    const deadline = Date.now() + 10_000;
    let tool = rows[0]?.tool;
    while (tool !== "$ echo step 1" && Date.now() < deadline) tool = (await ps(world))[0]?.tool;
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
    expect(await ps(world)).toEqual([]);

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
    await resultWritten(world, job);
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
    const [row] = await ps(world);
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
