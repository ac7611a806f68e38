// A world whose `gemini` is the scripted fake ACP agent (test/fake-agents/acp-agent.mjs), as the
// warm-host tests use it: each start is logged with its pid, every message the agent received is in
// acp-log.jsonl, and a session host's record can be read back (its pid kept for the clean-up).

import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, expect } from "vitest";
import { type TurnResultJson as TurnResult, turnResultShape } from "../../src/json-shapes.js";
import { installAcpAgent } from "./acp.js";
import { killAll, survivors } from "./pids.js";
import { createWorld, ensureBuilt, scv, type World } from "./scv.js";

export interface HostFile {
  readonly handle: string;
  readonly scv: { pid: number };
  readonly server: { pid: number };
  readonly session?: string;
  readonly usedAt: string;
}

export interface AcpWorld extends World {
  /** The pids of every fake agent started. */
  agentPids(): number[];
  /** The methods the fake agents received, in order. */
  methods(): string[];
  /** The conversation's host record, if there is one. */
  hostRecord(handle: string): HostFile | undefined;
  /** Every host record there is. */
  hostRecords(): HostFile[];
  /** Writes scv's config file. */
  useConfig(text: string): void;
}

/** Puts the fake ACP agent in `world`'s bin as `gemini` (test/helpers/acp.ts): it logs each start
 * to acp-calls.jsonl and runs in $FAKE_ACP_MODE (default scripted). */
export function installAcpGemini(world: World): void {
  installAcpAgent(world, "gemini");
}

export function createAcpWorld(): AcpWorld {
  const world = createWorld();
  installAcpGemini(world);
  const seen: number[] = [];
  const lines = (name: string): string[] => {
    try {
      return readFileSync(join(world.calls, name), "utf8").trim().split("\n").filter(Boolean);
    } catch {
      return [];
    }
  };
  const read = (path: string): HostFile | undefined => {
    try {
      const record = JSON.parse(readFileSync(path, "utf8")) as HostFile;
      seen.push(record.scv.pid);
      return record;
    } catch {
      return undefined;
    }
  };
  // The home scv runs with now: a test may point it elsewhere (a deeper folder) after the world is made.
  const hostsDir = () => join(world.env.SCV_HOME ?? world.scvHome, "hosts");
  const agentPids = () => lines("acp-calls.jsonl").map((line) => (JSON.parse(line) as { pid: number }).pid);
  return {
    ...world,
    agentPids,
    methods: () => lines("acp-log.jsonl").map((line) => (JSON.parse(line) as { method: string }).method),
    hostRecord: (handle) => read(join(hostsDir(), `${handle}.json`)),
    hostRecords: () =>
      existsSync(hostsDir())
        ? readdirSync(hostsDir())
            .filter((name) => name.endsWith(".json"))
            .flatMap((name) => read(join(hostsDir(), name)) ?? [])
        : [],
    useConfig(text) {
      writeFileSync(join(world.root, "config.toml"), text);
      world.env.SCV_CONFIG = join(world.root, "config.toml");
    },
    dispose() {
      killAll([...agentPids(), ...seen]);
      world.dispose();
    },
  };
}

/** A new AcpWorld for each test of the file (handed to `use`), disposed after it; the build first. */
export function acpWorldPerTest(use: (world: AcpWorld) => void): void {
  let world: AcpWorld | undefined;
  beforeAll(ensureBuilt, 120_000);
  beforeEach(() => {
    world = createAcpWorld();
    use(world);
  });
  afterEach(() => world?.dispose());
}

/** `scv delegate --json`'s output, read with scv's own schema. */
export function resultOf(stdout: string): TurnResult {
  return turnResultShape().parse(JSON.parse(stdout));
}

/** A first ACP turn that keeps its server warm: its conversation, its session, and the host holding
 * that session (read back, so the world's clean-up kills it whatever the test does). */
export async function firstWarmTurn(
  world: AcpWorld,
  prompt = "one",
): Promise<{ handle: string; session: string; host: HostFile }> {
  const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", prompt]);
  expect(run.exitCode, run.stderr).toBe(0);
  const result = resultOf(run.stdout);
  const handle = result.conversation ?? "";
  const host = world.hostRecord(handle);
  if (host === undefined) throw new Error(`no session host for ${handle}`);
  expect(host.session).toBe(result.session);
  return { handle, session: result.session ?? "", host };
}

/** Ends the conversation's host as a user would (`scv kill <handle>`), and checks nothing of it or of
 * any fake agent the world started is left. */
export async function endSessionHost(world: AcpWorld, handle: string, host: HostFile): Promise<void> {
  const killed = await scv(world, ["kill", handle]);
  expect(killed.exitCode, killed.stderr).toBe(0);
  expect(await survivors([...world.agentPids(), host.scv.pid])).toEqual([]);
}

/** Waits (polling, bounded) until `check` holds; whether it did. */
export async function until(check: () => boolean, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}
