// A CLI that gives its final result and then does not go: it never exits itself, or it exits and
// leaves a process holding its stdout (in its group, or in a session of its own). The turn is over
// a short grace after the CLI's own end-of-turn event: reported completed with its reply, exit 0,
// and nothing left running. In-process for every output format that has a structured final event
// (with a short grace), then through the built scv (its grace scaled as in every world; the real one:
// real-durations.stress.test.ts): foreground, background (`scv wait`) and fan-out.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ADAPTERS, type OutputFormatKind } from "../../src/adapters.js";
import { loadParser, OUTPUT_FORMAT_KINDS } from "../../src/parsers/index.js";
import { DURATIONS } from "../../src/timing.js";
import { runTurn } from "../../src/turn/run-turn.js";
import type { TurnContext } from "../../src/turn/turn-types.js";
import { useLab } from "../helpers/lab.js";
import { killAll, survivors } from "../helpers/pids.js";
import { agentPids, createWorld, scv, signIn, type World } from "../helpers/scv.js";

const lab = useLab();
const FIXTURES = join(import.meta.dirname, "..", "fixtures");

/** Plain text has no final event: its turn ends when the CLI exits. */
const FORMATS = OUTPUT_FORMAT_KINDS.filter((format) => format !== "text");

/** The first agent of each format, and its capture of a successful turn. */
function caseOf(format: OutputFormatKind): { agent: string; mode: string; stdout: string } {
  const entry = ADAPTERS.find((candidate) => candidate.output.kind === format);
  if (entry === undefined) throw new Error(`no agent reads ${format}`);
  const dir = join(FIXTURES, entry.name);
  const name = existsSync(join(dir, "turn1.stdout")) ? "turn1" : "turn";
  return {
    agent: entry.name,
    mode: `fixture:${name}`,
    stdout: readFileSync(join(dir, `${name}.stdout`), "utf8"),
  };
}

/** The reply the format's parser reads from the capture when the CLI exits 0 by itself. */
async function cleanReply(format: OutputFormatKind, stdout: string): Promise<string> {
  const parser = (await loadParser(format))();
  for (const line of stdout.split("\n")) parser.push(line);
  const parsed = parser.finish({ exitCode: 0, signal: null, stderrTail: "" });
  expect(parsed.status).toBe("completed");
  return parsed.reply;
}

/** Every process still running with the world's fake-agent folder in its environment. */
function leftInWorld(world: World = lab.world): number[] {
  const mark = `FAKE_AGENT_DIR=${world.calls}\0`;
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (`${readFileSync(`/proc/${name}/environ`, "latin1")}\0`.includes(mark)) found.push(Number(name));
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

function context(world: World, mode: string, linger: string): TurnContext {
  return {
    env: { ...world.env, FAKE_AGENT_MODE: mode, FAKE_AGENT_LINGER: linger },
    cwd: world.project,
    config: {},
    graceMs: 500,
    endGraceMs: 300,
    signInCheck: async () => undefined,
  };
}

describe("a CLI that lingers after its final result, every format", () => {
  it("covers every format with a final event", () => {
    expect(FORMATS.length).toBeGreaterThanOrEqual(9);
  });

  // Each in a world of its own, several at once: each mostly waits out its grace.
  for (const format of FORMATS) {
    for (const linger of ["self", "child", "escaped-child"]) {
      it.concurrent(`${format}, ${linger}: completed with its reply, nothing left`, async () => {
        const world = createWorld();
        const pids: number[] = [];
        try {
          const { agent, mode, stdout } = caseOf(format);
          const expected = await cleanReply(format, stdout);
          const started = Date.now();
          const pending = runTurn({ agent, prompt: "Say hi" }, context(world, mode, linger));
          pids.push(...(await agentPids(world)));
          const result = await pending;
          expect(result, result.error ?? "").toMatchObject({ status: "completed", exitCode: 0 });
          expect(result.reply).toBe(expected);
          expect(expected.length).toBeGreaterThan(0);
          // The grace (0.3 s), a SIGTERM and the fake's start-up; nothing else bounds this turn.
          expect(Date.now() - started).toBeLessThan(20_000);
          expect(await survivors([...pids, ...leftInWorld(world)])).toEqual([]);
        } finally {
          killAll(pids);
          world.dispose();
        }
      });
    }
  }
});

describe("through scv", () => {
  /** The grace, the fake's start-up and scv's, with room for a loaded machine. */
  const BOUND_MS = DURATIONS.endGrace + 10_000;

  it("foreground: the CLI never exits — the reply, exit 0, within the grace", async () => {
    await signIn(lab.world, "claude");
    const started = Date.now();
    const run = await scv(lab.world, ["delegate", "claude", "Say hi"], {
      env: { FAKE_AGENT_MODE: "reply", FAKE_AGENT_LINGER: "self" },
    });
    const pids = await lab.pidsOf();
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toBe("REPLY Say hi\n");
    expect(run.stderr).not.toContain("scv:");
    expect(Date.now() - started).toBeLessThan(BOUND_MS);
    expect(await survivors([...pids, ...leftInWorld()])).toEqual([]);
  });

  it("foreground: a child holds stdout after the CLI exits — the reply, exit 0", async () => {
    await signIn(lab.world, "codex");
    const started = Date.now();
    const run = await scv(lab.world, ["delegate", "codex", "--json", "Say hi"], {
      env: { FAKE_AGENT_LINGER: "escaped-child" },
    });
    const pids = await lab.pidsOf();
    expect(run.exitCode, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: "completed", exitCode: 0, reply: "MOCK-REPLY-1" });
    expect(Date.now() - started).toBeLessThan(BOUND_MS);
    expect(await survivors([...pids, ...leftInWorld()])).toEqual([]);
  });

  it("background: scv wait prints the reply, exit 0, nothing left", async () => {
    await signIn(lab.world, "pi");
    const launched = await scv(lab.world, ["delegate", "--background", "pi", "Say hi"], {
      env: { FAKE_AGENT_MODE: "reply", FAKE_AGENT_LINGER: "self" },
    });
    expect(launched.exitCode, launched.stderr).toBe(0);
    const handle = launched.stdout.trim();
    const pids = await lab.pidsOf();
    const started = Date.now();
    const waited = await scv(lab.world, ["wait", handle]);
    expect(waited.exitCode, waited.stderr).toBe(0);
    expect(waited.stdout).toBe("REPLY Say hi\n");
    expect(Date.now() - started).toBeLessThan(BOUND_MS);
    expect(await survivors([...pids, ...leftInWorld()])).toEqual([]);
  });

  it("fan-out: each lingering agent's reply under its header, exit 0", async () => {
    await signIn(lab.world, "claude");
    const run = await scv(lab.world, ["delegate", "claude", "gemini", "Say hi"], {
      env: { FAKE_AGENT_MODE: "reply", FAKE_AGENT_LINGER: "self" },
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/=== claude \([a-z0-9-]+\) · 1 line ===\nREPLY Say hi\n/);
    expect(run.stdout).toMatch(/=== gemini \([a-z0-9-]+\) · 1 line ===\nMOCK-REPLY-1\n/);
    lab.track(await lab.pidsOf());
    expect(await survivors(leftInWorld())).toEqual([]);
  });
});
