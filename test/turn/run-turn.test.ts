// runTurn in-process, with the fake agents on PATH and a scripted parser where a test must control
// what the CLI "said": how a parsed end becomes an exit code, a message and a conversation record.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ParsedTurn, StreamParser } from "../../src/parsers/event-types.js";
import { runTurn } from "../../src/turn/run-turn.js";
import type { TurnContext } from "../../src/turn/turn-types.js";
import { useLab } from "../helpers/lab.js";
import type { World } from "../helpers/scv.js";

let world: World;
useLab((created) => {
  world = created;
});

/** A parser that ignores the stream and concludes `parsed` (status etc.). */
function scripted(parsed: Partial<ParsedTurn>): () => StreamParser {
  return () => ({
    push: () => [],
    skipped: () => {},
    finish: () => ({ status: "completed", reply: "ok", cumulativeUsage: false, badLines: 0, ...parsed }),
  });
}

function context(overrides: Partial<TurnContext> = {}): TurnContext {
  // Sign-in is its own test below; elsewhere every agent counts as signed in.
  return {
    env: world.env,
    cwd: world.project,
    config: {},
    graceMs: 500,
    signInCheck: async () => undefined,
    ...overrides,
  };
}

function record(handle: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(world.scvHome, "conversations", `${handle}.json`), "utf8")) as Record<
    string,
    unknown
  >;
}

describe("runTurn", () => {
  it.each([
    ["auth", 4, "gemini failed to authenticate: 401 — run: scv agents login gemini"],
    ["rate-limit", 5, "gemini is rate limited: 401 — wait, then retry"],
    ["billing", 1, "gemini was refused for billing: 401 — check the account's plan or credits"],
    [
      "root-refused",
      1,
      "gemini refused its full-permission mode as root: 401 — run scv as a non-root user, or use --policy default",
    ],
    ["other", 1, "gemini failed: 401 — check it with: scv agents check gemini"],
  ] as const)("a %s failure exits %i", async (kind, exitCode, line) => {
    const result = await runTurn(
      { agent: "gemini", prompt: "hi" },
      context({
        parserFor: scripted({ status: "failed", reply: "", failure: { kind, message: "401\nmore" } }),
      }),
    );
    expect(result.exitCode).toBe(exitCode);
    expect(result.hint === null ? result.error : `${result.error} — ${result.hint}`).toBe(line);
  });

  it("names the reset time of a rate limit when the CLI gave one", async () => {
    const result = await runTurn(
      { agent: "gemini", prompt: "hi" },
      context({
        parserFor: scripted({
          status: "failed",
          failure: { kind: "rate-limit", message: "429", resetsAt: "2026-12-02T12:00:00Z" },
        }),
      }),
    );
    expect(result.hint).toBe("retry after 2026-12-02T12:00:00Z");
  });

  it("exits 143 when cancelled by SIGTERM, 130 otherwise", async () => {
    for (const [reason, code] of [
      ["SIGTERM", 143],
      ["SIGINT", 130],
    ] as const) {
      const controller = new AbortController();
      const pending = runTurn(
        { agent: "gemini", prompt: "hi" },
        context({ signal: controller.signal, env: { ...world.env, FAKE_AGENT_MODE: "hang" } }),
      );
      while (!existsSync(join(world.calls, "pids.json")))
        await new Promise((resolve) => setTimeout(resolve, 20));
      controller.abort(reason);
      const result = await pending;
      expect(result.status).toBe("cancelled");
      expect(result.exitCode).toBe(code);
      (await import("node:fs")).rmSync(join(world.calls, "pids.json"));
    }
  });

  it("refuses a signed-out agent before spawning it", async () => {
    const result = await runTurn(
      { agent: "gemini", prompt: "hi" },
      context({ signInCheck: async () => ({ state: "signed-out", detail: "no key" }) }),
    );
    expect(result).toMatchObject({
      exitCode: 4,
      error: "Gemini CLI is not signed in (no key)",
      hint: "scv agents login gemini".replace(/^/, "run: "),
    });
    expect(existsSync(world.calls) && (await import("node:fs")).readdirSync(world.calls)).toEqual([]);
  });

  it("records a failed first turn only when its session exists on the CLI's side", async () => {
    const unconfirmed = await runTurn(
      { agent: "gemini", prompt: "hi" },
      context({ parserFor: scripted({ status: "failed", failure: { kind: "other", message: "x" } }) }),
    );
    expect(unconfirmed.conversation).toBeNull();
    const confirmed = await runTurn(
      { agent: "gemini", prompt: "hi" },
      context({
        parserFor: scripted({
          status: "failed",
          sessionId: "3df7c9fb-01d5-4918-ad13-9da397ec056e",
          failure: { kind: "other", message: "x" },
        }),
      }),
    );
    expect(confirmed.conversation).toMatch(/^gemini-/);
    expect(record(confirmed.conversation ?? "")).toMatchObject({
      sessionId: "3df7c9fb-01d5-4918-ad13-9da397ec056e",
      lastStatus: "failed",
    });
  });

  it("never records a session id that is not the CLI's shape", async () => {
    const result = await runTurn(
      { agent: "codex", prompt: "hi" },
      context({ parserFor: scripted({ sessionId: "--yolo; rm -rf /" }) }),
    );
    expect(result.exitCode).toBe(0);
    expect(result.session).toBeNull();
    expect(result.notes).toEqual([
      "Codex reported a session id scv does not accept (not its documented shape); it was not recorded",
    ]);
    expect(record(result.conversation ?? "").sessionId).toBeUndefined();
  });

  it("counts a running total's share per turn and sums the turns in the record", async () => {
    const thread = "01a23648-e58b-7653-a8e1-80985ae37ee1";
    const first = await runTurn(
      { agent: "codex", prompt: "hi" },
      context({
        parserFor: scripted({ sessionId: thread, cumulativeUsage: true, usage: { input: 100, output: 10 } }),
      }),
    );
    expect(first.usage).toEqual({ input: 100, output: 10 });
    const second = await runTurn(
      { continue: first.conversation ?? "", prompt: "again" },
      context({
        parserFor: scripted({ sessionId: thread, cumulativeUsage: true, usage: { input: 250, output: 25 } }),
      }),
    );
    expect(second.usage).toEqual({ input: 150, output: 15 });
    expect(record(first.conversation ?? "")).toMatchObject({
      turns: 2,
      usage: { input: 250, output: 25 },
      cumulative: { input: 250, output: 25 },
    });
  });

  it("reports the cost of a turn from its usage", async () => {
    const result = await runTurn(
      { agent: "gemini", prompt: "hi" },
      context({ parserFor: scripted({ usage: { input: 1, output: 2, costUsd: 0.25 } }) }),
    );
    expect(result.cost).toBe(0.25);
  });

  it("says when the reply came from the CLI's last-message file, and removes the file", async () => {
    const result = await runTurn(
      { agent: "codex", prompt: "hi" },
      context({
        parserFor: () => ({
          push: () => [],
          skipped: () => {},
          finish: (end) => ({
            status: "completed",
            reply: end.lastMessage ?? "",
            cumulativeUsage: false,
            badLines: 1,
          }),
        }),
      }),
    );
    expect(result.reply).toBe("MOCK-REPLY-1");
    expect(result.notes).toEqual([
      "the reply was read from Codex's last-message file: its stream had unreadable lines",
    ]);
    expect((await import("node:fs")).readdirSync(join(world.scvHome, "agents", "codex", ".scv"))).toEqual([]);
  });
});
