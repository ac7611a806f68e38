// A turn whose agent left processes behind, one of them outside its process group (setsid), ends
// with none of them running: the group goes with the agent, and the end-of-turn sweep finds the
// escapee by the tag in its environment. The sweep reads only processes created since the turn
// began, where the kernel's pid counters tell which those are (os/pid-marks.ts): this holds that
// narrowing to what the full pass found.

import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useLab } from "../helpers/lab.js";
import { survivors } from "../helpers/pids.js";
import { agentPids, scv } from "../helpers/scv.js";

const lab = useLab();

describe.runIf(process.platform === "linux")("a turn that ends with processes left behind", () => {
  it("ends the agent, its grandchild and a setsid escapee before scv exits", async () => {
    const turn = scv(lab.world, ["delegate", "--timeout", "1s", "gemini", "Work"], {
      env: { FAKE_AGENT_MODE: "escape" },
    });
    const pids = await agentPids(lab.world);
    lab.track(pids);
    expect(pids).toHaveLength(3);
    const ended = await turn;
    expect(ended.exitCode).toBe(124);
    // No later scv runs to reap them: what is gone now, this turn ended.
    expect(await survivors(pids, 200)).toEqual([]);
    const turns = join(lab.world.scvHome, "turns");
    expect(existsSync(turns) ? readdirSync(turns) : []).toEqual([]);
  });
});
