// Simultaneous background continues of one conversation, through the built scv: each is refused as busy
// or its own reply is kept for its own job; while a long turn holds the conversation, one runs and
// the others are refused, leaving nothing but the running job's files.

import { describe, expect, it } from "vitest";
import { JOB, resultWritten, turnFiles, useBackgroundLab } from "../helpers/background.js";
import { agentPids, scv, signIn, type World } from "../helpers/scv.js";

let world: World;
const leftovers = useBackgroundLab((created) => {
  world = created;
});

describe("simultaneous background continues of one conversation", () => {
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
    for (const each of started) await resultWritten(world, each.job);
    // Reading one job's result leaves every other's.
    for (const [index, each] of started.entries()) {
      const waited = await scv(world, ["wait", each.job]);
      expect([waited.exitCode, waited.stdout]).toEqual([0, `REPLY ${each.prompt}\n`]);
      for (const other of started.slice(index + 1))
        expect(turnFiles(world)).toContain(`${other.job}.done.json`);
    }
    expect(turnFiles(world)).toEqual([]);
  });

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
    expect(turnFiles(world)).toEqual(
      [`${job}.events`, `${job}.log`, `${job}.reserve`, `${handle}.json`].sort(),
    );
    expect((await scv(world, ["kill", handle])).exitCode).toBe(0);
    expect((await scv(world, ["wait", handle])).exitCode).toBe(143);
  });
});
