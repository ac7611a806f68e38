// The scripted fake ACP agent (test/fake-agents/acp-agent.mjs) as an agent's ACP server in a world,
// and what it noted: each start (acp-calls.jsonl), each message it received (acp-log.jsonl), each
// prompt it ran (acp-prompts.jsonl).

import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach } from "vitest";
import { useLab } from "./lab.js";
import { killAll } from "./pids.js";
import type { World } from "./scv.js";

const ACP_AGENT = pathToFileURL(join(import.meta.dirname, "..", "fake-agents", "acp-agent.mjs")).href;

/** Installs `command` (`gemini` for `gemini --acp`, `codex-acp`) in the world's bin as the fake ACP
 * agent in the mode $FAKE_ACP_MODE names (scripted by default), noting its argv, environment, folder
 * and pid first. */
export function installAcpAgent(world: World, command = "gemini"): void {
  writeFileSync(
    join(world.bin, command),
    `#!${process.execPath}
const { appendFileSync } = require("node:fs");
appendFileSync(process.env.FAKE_AGENT_DIR + "/acp-calls.jsonl", JSON.stringify({ argv: process.argv.slice(2), env: process.env, cwd: process.cwd(), pid: process.pid }) + "\\n");
process.argv.splice(2, process.argv.length, process.env.FAKE_ACP_MODE || "scripted");
import(${JSON.stringify(ACP_AGENT)});
`,
  );
  chmodSync(join(world.bin, command), 0o755);
}

export interface AcpCall {
  readonly argv: string[];
  readonly env: Record<string, string>;
  readonly cwd: string;
  readonly pid: number;
}

function jsonLines<T>(world: World, name: string): T[] {
  try {
    return readFileSync(join(world.calls, name), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as T);
  } catch {
    return [];
  }
}

/** Each start of the fake ACP agent, oldest first. */
export function acpCalls(world: World): AcpCall[] {
  return jsonLines<AcpCall>(world, "acp-calls.jsonl");
}

/** What the fake ACP agents received, in order: each request or notification's method and params. */
export function acpReceived(world: World): { method: string; params: Record<string, unknown> }[] {
  return jsonLines(world, "acp-log.jsonl");
}

export function acpMethods(world: World): string[] {
  return acpReceived(world).map((message) => message.method);
}

/** The prompts the fake agent ran, with the model and effort its session had then. */
export function acpPrompts(world: World): { text: string; model: string; effort: string }[] {
  return jsonLines(world, "acp-prompts.jsonl");
}

/** Points the world's scv at a config file of `text`. */
export function useConfig(world: World, text: string): void {
  writeFileSync(join(world.root, "config.toml"), text);
  world.env.SCV_CONFIG = join(world.root, "config.toml");
}

/** A fresh world for each test of the calling file (useLab) whose `gemini` is the fake ACP agent, its
 * turns cold (session_idle = "0": no session host keeps a server for the next one); the servers it
 * started are killed after the test. */
export function useColdAcpLab(take: (world: World) => void): void {
  let world: World | undefined;
  useLab((created) => {
    world = created;
    take(created);
  });
  beforeEach(() => {
    if (world === undefined) return;
    installAcpAgent(world);
    useConfig(world, '[defaults]\nsession_idle = "0"\n');
  });
  afterEach(() => {
    if (world !== undefined) killAll(acpCalls(world).map((call) => call.pid));
  });
}
