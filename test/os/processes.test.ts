import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { hasVariable, variableValue } from "../../src/os/environ.js";
import { forksSinceBoot, pidsBetween } from "../../src/os/pid-marks.js";
import { parseProcStatStartTime } from "../../src/os/proc.js";
import { identify, isAlive, systemProcessTable } from "../../src/os/processes.js";

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

describe("hasVariable", () => {
  const needle = Buffer.from("\0SCV_TURN=t-1\0", "latin1");
  const environ = (...entries: string[]) => Buffer.from(`${entries.join("\0")}\0`, "latin1");
  it("finds the entry first, in the middle, last, and last without its NUL", () => {
    expect(hasVariable(environ("SCV_TURN=t-1", "A=b"), needle)).toBe(true);
    expect(hasVariable(environ("A=b", "SCV_TURN=t-1", "C=d"), needle)).toBe(true);
    expect(hasVariable(environ("A=b", "SCV_TURN=t-1"), needle)).toBe(true);
    expect(hasVariable(Buffer.from("A=b\0SCV_TURN=t-1", "latin1"), needle)).toBe(true);
    expect(hasVariable(Buffer.from("SCV_TURN=t-1", "latin1"), needle)).toBe(true);
  });

  it("does not take a longer value, a longer name, or a value mentioning it for the entry", () => {
    for (const entries of [
      ["SCV_TURN=t-10"],
      ["XSCV_TURN=t-1"],
      ["A=SCV_TURN=t-1"],
      ["A=b", "SCV_TURN=t-12"],
      ["A=bSCV_TURN=t-1"],
    ]) {
      expect([entries, hasVariable(environ(...entries), needle)]).toEqual([entries, false]);
      expect(hasVariable(Buffer.from(entries.join("\0"), "latin1"), needle)).toBe(false);
    }
    expect(hasVariable(Buffer.alloc(0), needle)).toBe(false);
  });
});

describe("variableValue", () => {
  const prefix = Buffer.from("\0SCV_TURN=", "latin1");
  const environ = (text: string) => Buffer.from(text, "latin1");
  it("reads the value first, in the middle and last, with or without the final NUL", () => {
    expect(variableValue(environ("SCV_TURN=a-1\0B=c\0"), prefix)).toBe("a-1");
    expect(variableValue(environ("B=c\0SCV_TURN=a-2\0D=e\0"), prefix)).toBe("a-2");
    expect(variableValue(environ("B=c\0SCV_TURN=a-3"), prefix)).toBe("a-3");
    expect(variableValue(environ("SCV_TURN=\0"), prefix)).toBe("");
  });

  it("finds nothing in a longer name or inside another value", () => {
    expect(variableValue(environ("XSCV_TURN=a\0"), prefix)).toBeUndefined();
    expect(variableValue(environ("B=SCV_TURN=a\0"), prefix)).toBeUndefined();
    expect(variableValue(environ(""), prefix)).toBeUndefined();
  });
});

describe.runIf(process.platform === "linux")("pidsByEnv", () => {
  it("finds the processes of several tags in one pass, and none of a tag nobody carries", async () => {
    const start = (value: string) =>
      spawn("sleep", ["30"], { env: { ...process.env, SCV_TURN_PROBE: value } });
    const children = [start("t-a"), start("t-b"), start("t-b")];
    try {
      const found = systemProcessTable.pidsByEnv?.("SCV_TURN_PROBE", new Set(["t-a", "t-b", "t-c"]));
      expect(found?.get("t-a")).toEqual([children[0]?.pid]);
      expect([...(found?.get("t-b") ?? [])].sort()).toEqual([children[1]?.pid, children[2]?.pid].sort());
      expect(found?.get("t-c")).toBeUndefined();
    } finally {
      for (const child of children) child.kill("SIGKILL");
    }
  });
});

describe("pidsBetween", () => {
  const PID_MAX = 32_768;
  it("is the pids handed out after the first mark, up to the last one the second saw", () => {
    expect(pidsBetween({ lastPid: 1000, forks: 50 }, { lastPid: 1012, forks: 70 }, PID_MAX)).toEqual({
      from: 1001,
      to: 1012,
    });
    expect(pidsBetween({ lastPid: 1000, forks: 50 }, { lastPid: 1000, forks: 50 }, PID_MAX)).toEqual({
      from: 1001,
      to: 1000,
    });
  });

  it("cannot tell once the allocator may have wrapped around", () => {
    // Below where it started: it wrapped.
    expect(
      pidsBetween({ lastPid: 32_000, forks: 50 }, { lastPid: 400, forks: 900 }, PID_MAX),
    ).toBeUndefined();
    // At or above where it started, but after enough forks to go all the way round.
    expect(
      pidsBetween({ lastPid: 1000, forks: 0 }, { lastPid: 1200, forks: 16_234 }, PID_MAX),
    ).toBeUndefined();
    expect(pidsBetween({ lastPid: 1000, forks: 0 }, { lastPid: 1200, forks: 16_233 }, PID_MAX)).toEqual({
      from: 1001,
      to: 1200,
    });
    // A counter that went down (another boot, a garbled read).
    expect(pidsBetween({ lastPid: 1000, forks: 90 }, { lastPid: 1200, forks: 10 }, PID_MAX)).toBeUndefined();
  });
});

describe("forksSinceBoot", () => {
  it("reads the processes line of /proc/stat", () => {
    const stat =
      "cpu  1 2 3\ncpu0 1 2 3\nintr 12 0 1\nctxt 99\nbtime 1700000000\nprocesses 43127\nprocs_running 2\n";
    expect(forksSinceBoot(stat)).toBe(43_127);
    expect(forksSinceBoot("cpu 1 2 3\nprocs_running 2\n")).toBeUndefined();
  });
});

describe.runIf(process.platform === "linux")("pidsByEnv since a mark", () => {
  it("finds a process created after the mark and passes over one created before it", async () => {
    const start = (value: string) =>
      spawn("sleep", ["30"], { env: { ...process.env, SCV_TURN_PROBE: value } });
    const before = start("t-mark");
    const mark = systemProcessTable.pidMark?.();
    expect(mark).toBeDefined();
    const after = start("t-mark");
    try {
      expect(systemProcessTable.pidsByEnv?.("SCV_TURN_PROBE", new Set(["t-mark"]), mark)).toEqual(
        new Map([["t-mark", [after.pid]]]),
      );
      // Without a mark, every process is read.
      expect(
        [
          ...(systemProcessTable.pidsByEnv?.("SCV_TURN_PROBE", new Set(["t-mark"]))?.get("t-mark") ?? []),
        ].sort(),
      ).toEqual([before.pid, after.pid].sort());
    } finally {
      before.kill("SIGKILL");
      after.kill("SIGKILL");
    }
  });
});
