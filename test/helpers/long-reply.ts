// Replies of MiBs on one line, and the peak memory of the scv that prints them
// (test/e2e/long-reply*.test.ts).

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { signIn, startScv, type World } from "./scv.js";

export const MiB = 1024 * 1024;

/** `bytes` of reply text: numbered lines with multi-byte characters, quotes and backslashes, which
 * the CLI escapes inside its JSON line. */
export function longReply(bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let n = 0; size < bytes; n += 1) {
    const line = `line ${n} — "quoted" \\ é 日本 🎉\n`;
    parts.push(line);
    size += Buffer.byteLength(line);
  }
  return parts.join("").trimEnd();
}

/** Runs `scv <args>` and reads its peak resident memory (VmHWM) from /proc while it runs, in MiB. */
export async function runMeasured(world: World, args: string[], env: Record<string, string>) {
  const child = startScv(world, args, { env });
  let peak = 0;
  const poll = setInterval(() => {
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
      const hwm = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
      if (hwm !== undefined) peak = Math.max(peak, Number(hwm) / 1024);
    } catch {
      // exited
    }
  }, 20);
  const result = await child;
  clearInterval(poll);
  return {
    exitCode: result.exitCode,
    stdout: String(result.stdout),
    stderr: String(result.stderr),
    peakMiB: peak,
  };
}

/** `agent` replying `size` MiB on one line: scv prints it byte for byte, with its memory bounded. */
export async function expectLongReply(world: World, agent: string, size: number): Promise<void> {
  await signIn(world, agent);
  const reply = longReply(size * MiB);
  const file = join(world.root, "reply.txt");
  writeFileSync(file, reply);
  const run = await runMeasured(world, ["delegate", agent, "Say hi"], {
    FAKE_AGENT_MODE: `reply-file:${file}`,
  });
  expect(run.exitCode, run.stderr.slice(0, 500)).toBe(0);
  expect(run.stdout.length).toBe(reply.length + 1);
  expect(run.stdout === `${reply}\n`).toBe(true);
  expect(run.stderr).not.toContain("scv:");
  // The line is held as bytes, then as a string and its parse: a few times the reply (Claude
  // sends it twice), never without bound. Figures: docs/benchmarks.md.
  expect(run.peakMiB).toBeLessThan(100 + 15 * size);
}
