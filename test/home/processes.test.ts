import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { identify, isAlive, parseProcStatStartTime, systemProcessTable } from "../../src/home/processes.js";

describe("process identity", () => {
  it("reads the start time after a command name with spaces and parentheses", () => {
    const stat = "4242 (evil) (name x) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 10";
    expect(parseProcStatStartTime(stat)).toBe("987654");
    expect(parseProcStatStartTime("garbage")).toBeUndefined();
  });

  it.runIf(process.platform === "linux")("tells a live process from a gone or reused pid", async () => {
    const child = spawn("sleep", ["30"], { env: { ...process.env, SCV_TURN_PROBE: "t-probe-1" } });
    const pid = child.pid ?? -1;
    const me = identify(pid);
    expect(me).toBeDefined();
    if (me === undefined) return;
    expect(isAlive(me)).toBe(true);
    expect(isAlive({ pid, startTime: `${me.startTime}1` })).toBe(false);
    expect(systemProcessTable.pidsWithEnv("SCV_TURN_PROBE", "t-probe-1")).toEqual([pid]);
    const exited = new Promise((resolve) => child.on("exit", resolve));
    systemProcessTable.kill(pid, "SIGKILL", false);
    await exited;
    expect(isAlive(me)).toBe(false);
    expect(identify(pid)).toBeUndefined();
  });
});
