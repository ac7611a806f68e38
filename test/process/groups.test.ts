// Signalling a process group (src/process/groups.ts).

import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { signalGroup } from "../../src/process/groups.js";

describe("signalGroup", () => {
  it("signals a live group, answers false for one that is gone, never scv's own", async () => {
    const child = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
    const pid = child.pid ?? 0;
    expect(signalGroup(pid, 0)).toBe(true);
    expect(signalGroup(pid, "SIGKILL")).toBe(true);
    await once(child, "exit");
    expect(signalGroup(pid, 0)).toBe(false);
    // kill(-0, …) is the caller's own group: a pid that is not one is refused.
    for (const bad of [0, -1, Number.NaN, 1.5]) expect(signalGroup(bad, 0)).toBe(false);
  });
});
