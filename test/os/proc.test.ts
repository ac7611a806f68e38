// What /proc says about process trees: the resident memory of a process and all below it.

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { residentTreeBytes } from "../../src/os/proc.js";

function residentBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(match?.[1] ?? 0) * 1024;
}

describe.runIf(process.platform === "linux")("residentTreeBytes", () => {
  it("sums a process and its descendants; a gone one is undefined", async () => {
    // A node that starts a node that holds 64 MiB, and says so.
    const child = spawn(
      process.execPath,
      [
        "-e",
        `const c = require("node:child_process").spawn(process.execPath, ["-e", "globalThis.b = Buffer.alloc(64 * 1024 * 1024, 1); console.log('held'); setInterval(() => {}, 1000)"], { stdio: ["ignore", "inherit", "ignore"] }); setInterval(() => {}, 1000)`,
      ],
      { stdio: ["ignore", "pipe", "ignore"], detached: true },
    );
    try {
      await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
      const pid = child.pid ?? 0;
      const tree = residentTreeBytes([pid, 999_999_999]).get(pid) ?? 0;
      expect(tree).toBeGreaterThan(residentBytes(pid) + 64 * 1024 * 1024);
      expect(residentTreeBytes([999_999_999]).get(999_999_999)).toBeUndefined();
    } finally {
      process.kill(-(child.pid ?? 0), "SIGKILL");
    }
  });
});
