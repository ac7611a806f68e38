// The ACP client against fake ACP agents (test/fake-agents/acp-agent.mjs): a real CLI's captured
// exchange, permission requests, cancellation, an agent that dies, one that never answers
// initialize, garbage on stdout, a flood of updates. Nothing may hang, nothing may be left running,
// and every failure is one line.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AcpAgent, type AcpLaunch } from "../../../src/acp/client/agent.js";
import { AcpAgentError } from "../../../src/acp/client/agent-errors.js";
import { optionOf } from "../../../src/acp/client/permission.js";
import { runAcpPrompt } from "../../../src/acp/client/prompt-turn.js";
import type { TurnEvent } from "../../../src/parsers/event-types.js";
import { killAll, survivors } from "../../helpers/pids.js";
import { promptWindow, runPrompt } from "../events/acp-run.js";

const FAKE = fileURLToPath(new URL("../../fake-agents/acp-agent.mjs", import.meta.url));

let dir: string;
const started: AcpAgent[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "scv-acp-test-"));
});

afterEach(async () => {
  for (const agent of started.splice(0)) await agent.kill();
  const pids = readPids();
  killAll(pids);
  rmSync(dir, { recursive: true, force: true });
});

function readPids(): number[] {
  try {
    return JSON.parse(readFileSync(join(dir, "acp-pids.json"), "utf8")) as number[];
  } catch {
    return [];
  }
}

function launch(mode: string, overrides: Partial<AcpLaunch> = {}): AcpLaunch {
  return {
    file: process.execPath,
    args: [FAKE, mode],
    cwd: dir,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", FAKE_AGENT_DIR: dir },
    label: "fake",
    graceMs: 500,
    ...overrides,
  };
}

async function start(mode: string, overrides: Partial<AcpLaunch> = {}): Promise<AcpAgent> {
  const agent = await AcpAgent.start(launch(mode, overrides));
  started.push(agent);
  return agent;
}

async function startFailure(mode: string, overrides: Partial<AcpLaunch> = {}): Promise<AcpAgentError> {
  try {
    const agent = await AcpAgent.start(launch(mode, overrides));
    started.push(agent);
  } catch (error) {
    if (error instanceof AcpAgentError) return error;
    throw error;
  }
  throw new Error("the agent started");
}

describe("a real CLI's captured exchange (Gemini CLI 0.61.0)", () => {
  it("initialize, session/new, then warm prompts give the turns the captures give", async () => {
    const agent = await start("replay:gemini/turn");
    expect(agent.info).toMatchObject({
      protocolVersion: 1,
      loadSession: true,
      name: "gemini-cli",
      version: "0.61.0",
    });
    const session = await agent.newSession(dir);
    for (const nth of [0, 1, 2]) {
      const events: TurnEvent[] = [];
      const { turn } = await runAcpPrompt({
        agent,
        sessionId: session.sessionId,
        prompt: "Say hi",
        onEvent: (event) => events.push(event),
      });
      const expected = runPrompt(promptWindow("gemini", "turn", nth));
      expect(turn).toEqual(expected.turn);
      expect(events).toEqual(expected.events);
    }
    const exit = await agent.close();
    expect(exit.exitCode).toBe(0);
    expect(await survivors(readPids())).toEqual([]);
  });

  it("session/load: the replay Gemini sends after its answer is not the next turn's reply", async () => {
    const agent = await start("replay:gemini/load");
    const expected = runPrompt(promptWindow("gemini", "load"));
    const loaded = await agent.loadSession(expected.turn.sessionId ?? "", dir);
    const { turn } = await runAcpPrompt({ agent, sessionId: loaded.sessionId, prompt: "After the load" });
    expect(turn).toEqual(expected.turn);
    expect(turn.reply).toBe("MOCK-REPLY-10");
  });

  it("a captured permission request reaches the caller, and its answer goes back", async () => {
    const agent = await start("replay:gemini/tool-default");
    const session = await agent.newSession(dir);
    const asked: string[] = [];
    const { turn } = await runAcpPrompt({
      agent,
      sessionId: session.sessionId,
      prompt: "Run the probe command",
      decide: async (ask) => {
        asked.push(ask.options.map((option) => option.kind).join(","));
        return optionOf(ask, "allow_once") ?? "cancelled";
      },
    });
    expect(asked).toEqual(["allow_always,allow_once,reject_once"]);
    expect(turn).toEqual(runPrompt(promptWindow("gemini", "tool-default")).turn);
  });
});

describe("permission requests", () => {
  it("allowed once: the tool runs and ends ok", async () => {
    const agent = await start("permission");
    const session = await agent.newSession(dir);
    const events: TurnEvent[] = [];
    const { turn } = await runAcpPrompt({
      agent,
      sessionId: session.sessionId,
      prompt: "go",
      onEvent: (event) => events.push(event),
      decide: async (ask) => optionOf(ask, "allow_once") ?? "cancelled",
    });
    expect(turn.reply).toBe("ALLOWED");
    expect(events.filter((event) => event.type.startsWith("tool"))).toEqual([
      { type: "tool-start", id: "call_fake_1", name: "execute", summary: "touch scv-tool-probe.txt" },
      { type: "tool-end", id: "call_fake_1", name: "execute", ok: true },
    ]);
  });

  it("with nobody to ask, scv rejects: the tool ends not ok and the agent is told no", async () => {
    const agent = await start("permission");
    const session = await agent.newSession(dir);
    const events: TurnEvent[] = [];
    const { turn } = await runAcpPrompt({
      agent,
      sessionId: session.sessionId,
      prompt: "go",
      onEvent: (event) => events.push(event),
    });
    expect(turn).toMatchObject({ status: "completed", reply: "REJECTED" });
    expect(events.filter((event) => event.type === "tool-end")).toEqual([
      { type: "tool-end", id: "call_fake_1", name: "execute", ok: false },
    ]);
  });
});

describe("the idle limit", () => {
  it("does not run while a permission question waits for its answer", async () => {
    const agent = await start("permission");
    const session = await agent.newSession(dir);
    const { turn, outcome } = await runAcpPrompt({
      agent,
      sessionId: session.sessionId,
      prompt: "go",
      idleTimeoutMs: 300,
      decide: async (ask) => {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        return optionOf(ask, "allow_once") ?? "cancelled";
      },
    });
    expect(outcome).toMatchObject({ kind: "answered" });
    expect(outcome.kind === "answered" ? outcome.stopped : "ended").toBeUndefined();
    expect(turn.reply).toBe("ALLOWED");
  });

  it("cancels a prompt whose session goes quiet: a timeout", async () => {
    const agent = await start("cancel");
    const session = await agent.newSession(dir);
    const { turn, outcome } = await runAcpPrompt({
      agent,
      sessionId: session.sessionId,
      prompt: "go",
      idleTimeoutMs: 300,
    });
    expect(outcome).toMatchObject({ kind: "answered", stopped: "idle-timeout" });
    expect(turn.status).toBe("timeout");
  });
});

describe("cancellation", () => {
  it("session/cancel mid-turn: the agent answers cancelled and the session takes the next prompt", async () => {
    const agent = await start("cancel");
    const session = await agent.newSession(dir);
    const stop = new AbortController();
    const { turn, outcome } = await runAcpPrompt({
      agent,
      sessionId: session.sessionId,
      prompt: "wait",
      signal: stop.signal,
      onEvent: (event) => {
        if (event.type === "text") stop.abort();
      },
    });
    expect(outcome).toMatchObject({ kind: "answered", stopped: "cancelled" });
    expect(turn.status).toBe("cancelled");
    expect(agent.pid !== undefined && (await survivors([agent.pid], 0)).length).toBe(1);
    const next = await runAcpPrompt({ agent, sessionId: session.sessionId, prompt: "again", timeoutMs: 200 });
    expect(next.outcome).toMatchObject({ kind: "answered", stopped: "timeout" });
    expect(next.turn.status).toBe("timeout");
  });

  it("an agent that ignores session/cancel is ended after the grace period", async () => {
    const agent = await start("ignore-cancel");
    const session = await agent.newSession(dir);
    const began = Date.now();
    const { turn, outcome } = await runAcpPrompt({
      agent,
      sessionId: session.sessionId,
      prompt: "wait",
      timeoutMs: 100,
      cancelGraceMs: 200,
    });
    expect(outcome).toMatchObject({ kind: "ended", reason: "timeout" });
    expect(turn).toMatchObject({ status: "timeout", reply: "partial" });
    expect(Date.now() - began).toBeLessThan(3_000);
    expect(await survivors(readPids())).toEqual([]);
  });
});

describe("an agent that fails", () => {
  it("dies mid-turn: the turn fails with its exit code and stderr line, at once", async () => {
    const agent = await start("die");
    const session = await agent.newSession(dir);
    const { turn, outcome } = await runAcpPrompt({ agent, sessionId: session.sessionId, prompt: "go" });
    expect(outcome).toMatchObject({ kind: "ended", reason: "exited" });
    expect(turn.status).toBe("failed");
    expect(turn.reply).toBe("partial");
    expect(turn.failure?.message).toBe(
      "its ACP server exited before answering the prompt: exit code 3 (stderr: fatal: model crashed)",
    );
    // A request after its death fails at once with one line, not a hang.
    const late = await agent.newSession(dir).catch((error: unknown) => error);
    expect(late).toBeInstanceOf(AcpAgentError);
    expect((late as Error).message).toMatch(
      /^fake exited before answering session\/new: exit code 3 \(stderr: fatal: model crashed\)$/,
    );
  });

  it("never answers initialize: a bounded start, one line, nothing left running", async () => {
    const began = Date.now();
    const error = await startFailure("no-init", { initializeTimeoutMs: 300 });
    expect(error.reason).toBe("initialize-timeout");
    expect(error.message).toBe("fake did not answer ACP initialize within 0.3 s");
    expect(Date.now() - began).toBeLessThan(3_000);
    expect(await survivors(readPids())).toEqual([]);
  });

  it("speaks another protocol version: refused with one line", async () => {
    const error = await startFailure("protocol:2");
    expect(error.message).toBe("fake speaks ACP protocol version 2; scv speaks 1");
    expect(await survivors(readPids())).toEqual([]);
  });

  it("cannot be started: one line naming the reason", async () => {
    const error = await startFailure("replay:gemini/turn", { file: join(dir, "no-such-agent") });
    expect(error.reason).toBe("spawn");
    expect(error.message).toBe("fake could not be started: ENOENT");
  });
});

describe("a noisy agent", () => {
  it("garbage on stdout around and inside the answers changes nothing", async () => {
    const agent = await start("garbage");
    const session = await agent.newSession(dir);
    const { turn } = await runAcpPrompt({ agent, sessionId: session.sessionId, prompt: "go" });
    expect(turn).toMatchObject({ status: "completed", reply: "MOCK-REPLY" });
  });

  it("a flood of updates: every one is handled, in order", async () => {
    const agent = await start("flood:20000");
    const session = await agent.newSession(dir);
    let texts = 0;
    const { turn } = await runAcpPrompt({
      agent,
      sessionId: session.sessionId,
      prompt: "go",
      onEvent: (event) => {
        if (event.type === "text") texts += 1;
      },
    });
    expect(texts).toBe(20000);
    expect(turn.reply).toBe("x".repeat(20000));
    expect(turn.usage).toEqual({ input: 1, output: 20000 });
  });

  it("what the agent started goes with it when it is closed", async () => {
    const agent = await start("grandchild");
    const pids = readPids();
    expect(pids).toHaveLength(2);
    await agent.close();
    expect(await survivors(pids)).toEqual([]);
  });
});
