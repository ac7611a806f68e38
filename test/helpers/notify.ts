// The world of the notification tests (test/e2e/notify*.test.ts): canaries in scv's environment, a
// notifier command in the world's bin that appends what it got (its stdin, its environment) to a file
// (or fails, or hangs with a child), `[notify]` pointing at it, and what it was sent, read back.

import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect } from "vitest";
import { useConfig } from "./acp.js";
import { canaryVariables } from "./canaries.js";
import { type Lab, useLab } from "./lab.js";
import { closeClients } from "./mcp-client.js";
import type { World } from "./scv.js";

/** Put in prompts: no notification may carry it unless include_prompt says so. */
export const PROMPT_CANARY = "prompt-canary-7f3a";
export const JOB = /^[a-z-]+-[0-9a-z]{6}\.[0-9a-z]{8}$/;

const NOTIFIER = `#!${process.execPath}
const { appendFileSync, writeFileSync } = require("node:fs");
const { spawn } = require("node:child_process");
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  appendFileSync(process.argv[2], JSON.stringify({ stdin: input, env: process.env }) + "\\n");
  if (process.argv[3] === "fail") {
    process.stderr.write("the notifier broke\\n");
    process.exit(3);
  }
  if (process.argv[3] === "hang") {
    const child = spawn("sleep", ["600"], { stdio: "ignore" });
    writeFileSync(process.argv[2] + ".pids", JSON.stringify([process.pid, child.pid]));
    setInterval(() => {}, 1000);
  }
});
`;

/** A fresh world for each test of the calling file (useLab) with the canaries in its environment and
 * the notifier in its bin; the MCP clients a test connected are closed after it. */
export function useNotifyLab(take: (world: World) => void): Lab {
  let world: World | undefined;
  const lab = useLab((created) => {
    world = created;
    take(created);
  });
  beforeEach(() => {
    if (world === undefined) return;
    Object.assign(world.env, canaryVariables());
    writeFileSync(join(world.bin, "notifier"), NOTIFIER);
    chmodSync(join(world.bin, "notifier"), 0o755);
  });
  afterEach(closeClients);
  return lab;
}

/** The file the notifier appends to. */
export const notifiedFile = (world: World) => join(world.root, "notified.jsonl");

/** `[notify]` running the notifier (`mode`: fail, hang), and `extra` lines. */
export function notifyConfig(world: World, extra = "", mode?: string): void {
  const command = [join(world.bin, "notifier"), notifiedFile(world), ...(mode === undefined ? [] : [mode])];
  useConfig(world, `[notify]\ncommand = ${JSON.stringify(command)}\n${extra}`);
}

export interface Notified {
  readonly event: Record<string, unknown>;
  readonly raw: string;
  readonly env: Record<string, string>;
}

/** What the notifier was sent, oldest first. */
export function notified(world: World): Notified[] {
  if (!existsSync(notifiedFile(world))) return [];
  // Whole lines only: a notifier may be appending one as this reads.
  const text = readFileSync(notifiedFile(world), "utf8");
  return text
    .slice(0, text.lastIndexOf("\n") + 1)
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const { stdin, env } = JSON.parse(line) as { stdin: string; env: Record<string, string> };
      return { event: JSON.parse(stdin) as Record<string, unknown>, raw: stdin, env };
    });
}

/** The first notification of `kind`, once it came (bounded). */
export async function notifiedOf(world: World, kind: string, withinMs = 20_000): Promise<Notified> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const found = notified(world).find((each) => each.event.event === kind);
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`no ${kind} event; got ${JSON.stringify(notified(world))}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Neither the stdin nor the environment of a notification holds a secret or the prompt. */
export function expectNoSecret(each: Notified): void {
  const secrets = [...Object.values(canaryVariables()), PROMPT_CANARY];
  for (const secret of secrets) {
    expect(each.raw).not.toContain(secret);
    expect(Object.values(each.env).join("\n")).not.toContain(secret);
  }
}
