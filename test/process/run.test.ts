import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type ProcessExit, type ProcessOptions, startProcess } from "../../src/process/run.js";
import { killAll, survivors } from "../helpers/pids.js";

const NODE = process.execPath;
const leftovers: number[] = [];

afterEach(() => {
  killAll(leftovers.splice(0));
});

/** Node code that prints `pids <own> <grandchild>` once its grandchild runs, then waits. */
const WITH_GRANDCHILD = `
  const { spawn } = require("node:child_process");
  const g = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  console.log("pids " + process.pid + " " + g.pid);
  setInterval(() => {}, 1000);
`;
const IGNORES_SIGTERM = `
  process.on("SIGTERM", () => {});
  console.log("pids " + process.pid);
  setInterval(() => {}, 1000);
`;

interface Run {
  readonly stdout: () => string;
  readonly pids: Promise<number[]>;
  readonly terminate: (reason: "timeout" | "idle-timeout" | "cancelled") => void;
  readonly done: Promise<ProcessExit>;
}

function run(code: string, options: Partial<ProcessOptions> = {}): Run {
  let out = "";
  let announce: (pids: number[]) => void = () => {};
  const pids = new Promise<number[]>((resolve) => {
    announce = resolve;
  });
  const child = startProcess({
    file: NODE,
    args: ["-e", code],
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? "" },
    graceMs: 500,
    ...options,
    onStdout: (chunk) => {
      out += chunk.toString("utf8");
      const match = /pids ([\d ]+)\n/.exec(out);
      if (match?.[1] !== undefined) {
        const found = match[1].trim().split(" ").map(Number);
        leftovers.push(...found);
        announce(found);
      }
    },
  });
  return { stdout: () => out, pids, terminate: child.terminate, done: child.done };
}

describe("startProcess", () => {
  it("hands stdout on, keeps the exit code and only the tail of stderr", async () => {
    const child = run(
      `process.stdout.write("héllo\\n"); process.stderr.write("x".repeat(5000) + "END"); process.exit(3)`,
      { stderrTailBytes: 100 },
    );
    const end = await child.done;
    expect(end.exitCode).toBe(3);
    expect(end.signal).toBeNull();
    expect(end.termination).toBeUndefined();
    expect(child.stdout()).toBe("héllo\n");
    expect(end.stderrTail.endsWith("END")).toBe(true);
    expect(end.stderrTail.length).toBeLessThanOrEqual(100);
  });

  it("runs with stdin closed, in the given cwd and with exactly the given environment", async () => {
    const dir = mkdtempSync(join(tmpdir(), "scv-proc-"));
    try {
      const child = startProcess({
        file: NODE,
        args: [
          "-e",
          `let n=0; process.stdin.on("data",()=>{}); process.stdin.on("end",()=>{ console.log(JSON.stringify({cwd:process.cwd(), keys:Object.keys(process.env).sort()})); });`,
        ],
        cwd: dir,
        env: { ONLY: "1" },
        onStdout: (chunk) => {
          text += chunk.toString();
        },
      });
      let text = "";
      const end = await child.done;
      expect(end.exitCode).toBe(0);
      const seen = JSON.parse(text) as { cwd: string; keys: string[] };
      expect(seen.cwd).toBe(dir);
      expect(seen.keys).toEqual(["ONLY"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("ends the whole group on termination, grandchild included", async () => {
    const child = run(WITH_GRANDCHILD);
    const pids = await child.pids;
    child.terminate("timeout");
    const end = await child.done;
    expect(end.termination).toBe("timeout");
    expect(end.signal).toBe("SIGTERM");
    expect(await survivors(pids)).toEqual([]);
  });

  it("kills a process that ignores SIGTERM after the grace period", async () => {
    const child = run(IGNORES_SIGTERM, { graceMs: 300 });
    const pids = await child.pids;
    child.terminate("cancelled");
    const end = await child.done;
    expect(end.termination).toBe("cancelled");
    expect(end.signal).toBe("SIGKILL");
    expect(await survivors(pids)).toEqual([]);
  });

  it("keeps the first termination reason", async () => {
    const child = run(IGNORES_SIGTERM, { graceMs: 300 });
    await child.pids;
    child.terminate("idle-timeout");
    child.terminate("cancelled");
    expect((await child.done).termination).toBe("idle-timeout");
  });

  it("times out on its own clock", async () => {
    const child = run("setInterval(() => {}, 1000)", { timeoutMs: 200 });
    const end = await child.done;
    expect(end.termination).toBe("timeout");
  });

  it("times out after no output for the idle limit, not while output flows", async () => {
    // Prints every 20 ms for a while, then goes quiet: only the quiet part may trigger the limit.
    const child = run(
      `let n = 0; const t = setInterval(() => { console.log(n++); if (n === 12) clearInterval(t); }, 20); setInterval(() => {}, 1000);`,
      { idleTimeoutMs: 1_000 },
    );
    const end = await child.done;
    expect(end.termination).toBe("idle-timeout");
    expect(child.stdout().trim().split("\n")).toHaveLength(12);
  });

  it("ends the group on abort, and never starts when already aborted", async () => {
    const controller = new AbortController();
    const child = run(WITH_GRANDCHILD, { signal: controller.signal });
    const pids = await child.pids;
    controller.abort();
    expect((await child.done).termination).toBe("cancelled");
    expect(await survivors(pids)).toEqual([]);

    const never = startProcess({
      file: NODE,
      args: ["-e", "0"],
      cwd: process.cwd(),
      env: {},
      signal: controller.signal,
      onStdout: () => {},
    });
    expect(never.pid).toBeUndefined();
    expect((await never.done).termination).toBe("cancelled");
  });

  it("returns once the agent exits even when a grandchild holds stdout, and ends the grandchild", async () => {
    const child = run(
      `const { spawn } = require("node:child_process");
       const g = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: ["ignore", "inherit", "inherit"] });
       console.log("pids " + g.pid);
       process.exit(0);`,
    );
    const pids = await child.pids;
    const end = await child.done;
    expect(end.exitCode).toBe(0);
    expect(await survivors(pids)).toEqual([]);
  });

  it("reports an executable that cannot start", async () => {
    const child = startProcess({
      file: "/nonexistent/scv-agent",
      args: [],
      cwd: process.cwd(),
      env: {},
      onStdout: () => {},
    });
    const end = await child.done;
    expect(end.exitCode).toBeNull();
    expect(end.spawnError?.code).toBe("ENOENT");
  });
});
