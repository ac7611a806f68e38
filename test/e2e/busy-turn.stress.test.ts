// A busy turn's record keeps up with it: `scv ps` shows the tool running now within half a second of
// a burst of others (src/turn/record-updates.ts) — a bound in time, so in the tier that runs alone.

import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RunningTurnRecord } from "../../src/home/turn-records.js";
import { useLab } from "../helpers/lab.js";
import { runningRecord, scv, signIn, startScv } from "../helpers/scv.js";

const lab = useLab();

describe("a turn with thousands of tool calls", () => {
  it("scv ps shows the tool running now within half a second of a burst of others", async () => {
    await signIn(lab.world, "claude");
    startScv(lab.world, ["delegate", "claude", "Work"], { env: { FAKE_AGENT_MODE: "tool-hang:400" } });
    // The fake writes pids.json just before its 399 calls and the start of call 400.
    const pids = await lab.pidsOf();
    const wrote = statSync(join(lab.world.calls, "pids.json")).mtimeMs;
    const { path } = await runningRecord(lab.world);
    const deadline = Date.now() + 10_000;
    let record = JSON.parse(readFileSync(path, "utf8")) as RunningTurnRecord;
    while (record.tool !== "$ echo step 400" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      record = JSON.parse(readFileSync(path, "utf8")) as RunningTurnRecord;
    }
    expect(record.tool).toBe("$ echo step 400");
    // Timed by the files themselves, not by this test's polling: the record written after the agent.
    expect(statSync(path).mtimeMs - wrote).toBeLessThan(500);
    const ps = await scv(lab.world, ["ps"]);
    expect(ps.stdout).toMatch(
      new RegExp(
        `\\n${record.tag.replace(".", "\\.")} +claude +default +${pids[0]} +\\S+ +- +running +\\$ echo step 400\\n$`,
      ),
    );
  });
});
