// The ACP turn parser on real captures (test/fixtures/acp/): each prompt's updates and answer, as
// scv's normalized events and turn — replies, tool calls with their one-line summaries, usage in
// each agent's place for it, failures in scv's classes — and on damaged streams.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createAcpTurnParser, type TextNotices } from "../../../src/acp/events/acp-parser.js";
import { failureOfRpcError } from "../../../src/acp/events/acp-wire.js";
import { adapter } from "../../../src/adapters.js";
import type { TurnEvent } from "../../../src/parsers/event-types.js";
import { FIXTURES } from "../../parsers/run.js";
import { ANSWERED, promptWindow, runPrompt } from "./acp-run.js";

/** Copilot CLI's notices (as its table row will name them). */
const COPILOT_NOTICES: TextNotices = { error: /^Error: /, info: /^Info: / };

const tools = (events: readonly TurnEvent[]) =>
  events.filter((event) => event.type === "tool-start" || event.type === "tool-end");

describe("Gemini CLI 0.61.0 over ACP", () => {
  it("a first turn: the reply from its chunks, usage from the answer's _meta.quota", () => {
    const window = promptWindow("gemini", "turn");
    const { turn, events } = runPrompt(window);
    expect(turn).toEqual({
      status: "completed",
      reply: "MOCK-REPLY-1",
      sessionId: window.sessionId,
      usage: { input: 12391, output: 6 },
      cumulativeUsage: false,
      badLines: 0,
    });
    expect(events.filter((event) => event.type === "text")).toEqual([
      { type: "text", text: "MOCK-", delta: true },
      { type: "text", text: "REPLY-", delta: true },
      { type: "text", text: "1", delta: true },
    ]);
    expect(events[0]).toEqual({ type: "session", sessionId: window.sessionId });
  });

  it("each turn on a warm session reports its own usage", () => {
    const second = runPrompt(promptWindow("gemini", "turn", 1)).turn;
    const third = runPrompt(promptWindow("gemini", "turn", 2)).turn;
    expect([second.reply, second.usage]).toEqual(["MOCK-REPLY-2", { input: 12417, output: 7 }]);
    expect([third.reply, third.usage]).toEqual(["MOCK-REPLY-3", { input: 12442, output: 8 }]);
  });

  it("a tool call announced only by its permission request starts there and ends with its update", () => {
    const { turn, events } = runPrompt(promptWindow("gemini", "tool-default"));
    const id = "run_shell_command__run_shell_command_1796321348836_0";
    expect(tools(events)).toEqual([
      { type: "tool-start", id, name: "execute", summary: "touch scv-tool-probe.txt" },
      { type: "tool-end", id, name: "execute", ok: true },
    ]);
    expect(turn.reply).toBe("MOCK-REPLY-5");
  });

  it("the mode the session runs in opens the turn", () => {
    const { turn, events } = runPrompt(promptWindow("gemini", "tool-full"), { mode: "yolo" });
    expect(events.slice(0, 2)).toEqual([
      { type: "session", sessionId: turn.sessionId },
      { type: "mode", mode: "yolo" },
    ]);
    expect(turn.mode).toBe("yolo");
  });

  it("a continued session after session/load: only the new turn's text is the reply", () => {
    const { turn } = runPrompt(promptWindow("gemini", "load"));
    expect(turn.reply).toBe("MOCK-REPLY-10");
  });

  it("a 401 answered as a JSON-RPC error with the HTTP status as its code and the body as its message", () => {
    const { turn } = runPrompt(promptWindow("gemini", "auth-fail"));
    expect(turn.status).toBe("failed");
    expect(turn.failure).toEqual({
      kind: "auth",
      message: "API key not valid. Please pass a valid API key. (mock)",
    });
  });

  it("a 429 with retries off: rate-limit with the suggested wait, not billing", () => {
    const { turn } = runPrompt(promptWindow("gemini", "rate-limit-once"));
    expect(turn.failure).toEqual({
      kind: "rate-limit",
      message:
        "You exceeded your current quota, please check your plan and billing details. (mock) Suggested retry after 1s.",
      resetsAt: "1s",
    });
  });

  it("a prompt scv cancelled (while the CLI retried a 429) is cancelled, not failed", () => {
    const window = promptWindow("gemini", "rate-limit");
    const cancelled = runPrompt(
      window,
      {},
      { ...ANSWERED, termination: "cancelled", verdictAfterStop: true },
    );
    expect(cancelled.turn.status).toBe("cancelled");
    expect(cancelled.turn.failure).toBeUndefined();
    // The same answer without scv asking: the agent gave up by itself.
    expect(runPrompt(window).turn.failure).toEqual({
      kind: "other",
      message: "the agent cancelled the turn, though scv did not ask it to",
    });
  });
});

describe("Qwen Code 0.24.4 over ACP", () => {
  it("usage from each model call's empty chunk (_meta.usage), summed over the turn", () => {
    const { turn } = runPrompt(promptWindow("qwen", "tool-default"));
    expect(turn.usage).toEqual({ input: 39530, cached: 0, output: 24, reasoning: 0 });
    expect(turn.reply).toBe("MOCK-REPLY-8");
  });

  it("a pending call titled `Shell` with an empty input waits for the permission request's input", () => {
    const { events } = runPrompt(promptWindow("qwen", "tool-default"));
    expect(tools(events)).toEqual([
      {
        type: "tool-start",
        id: "call_mock_0006",
        name: "run_shell_command",
        summary: "$ touch scv-tool-probe.txt",
      },
      { type: "tool-end", id: "call_mock_0006", name: "run_shell_command", ok: true },
    ]);
  });

  it("a refused call ends not ok, and the turn still completes", () => {
    const { turn, events } = runPrompt(promptWindow("qwen", "tool-reject"));
    expect(tools(events).at(-1)).toEqual({
      type: "tool-end",
      id: "call_mock_0010",
      name: "run_shell_command",
      ok: false,
    });
    expect(turn.status).toBe("completed");
  });

  it("a 401 arrives as -32603 Internal error with the words in data.details", () => {
    const { turn } = runPrompt(promptWindow("qwen", "auth-fail"));
    expect(turn.failure).toEqual({
      kind: "auth",
      message: "401 Incorrect API key provided: sk-mock***. (mock)",
    });
  });

  it("a 429 after its retries arrives with the status as the code", () => {
    const { turn } = runPrompt(promptWindow("qwen", "rate-limit-once"));
    expect(turn.failure).toEqual({ kind: "rate-limit", message: "Rate limit exceeded. Try again later." });
  });
});

describe("OpenCode 1.18.33 over ACP", () => {
  it("usage per prompt in the answer's usage", () => {
    const { turn } = runPrompt(promptWindow("opencode", "turn", 1));
    expect(turn).toMatchObject({
      status: "completed",
      reply: "MOCK-REPLY-3",
      usage: { input: 7720, output: 8 },
    });
  });

  it("a call titled `bash` with only its cwd starts once its command is known", () => {
    const { events } = runPrompt(promptWindow("opencode", "tool-default"));
    expect(tools(events)).toEqual([
      { type: "tool-start", id: "call_mock_0006", name: "execute", summary: "$ touch scv-tool-probe.txt" },
      { type: "tool-end", id: "call_mock_0006", name: "execute", ok: true },
    ]);
  });

  it("errors are -32603 `Internal error: <the provider's words>`", () => {
    expect(runPrompt(promptWindow("opencode", "auth-fail")).turn.failure).toEqual({
      kind: "auth",
      message: "Internal error: Incorrect API key provided: sk-mock***. (mock)",
    });
    expect(runPrompt(promptWindow("opencode", "rate-limit")).turn.failure).toEqual({
      kind: "rate-limit",
      message:
        "Internal error: Rate limit reached for requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 1s. (mock)",
      resetsAt: "1s",
    });
  });
});

describe("Copilot CLI 1.0.102 over ACP", () => {
  it("the answer's usage is a running total over the session", () => {
    const first = runPrompt(promptWindow("copilot", "turn", 0), { cumulativeUsage: true }).turn;
    const second = runPrompt(promptWindow("copilot", "turn", 1), { cumulativeUsage: true }).turn;
    expect(first.usage?.input).toBe(10191);
    expect(second.usage?.input).toBe(20425);
    expect(second.cumulativeUsage).toBe(true);
  });

  it("a failed prompt is answered end_turn after an `Error:` chunk: a failure, not a reply", () => {
    const { turn, events } = runPrompt(promptWindow("copilot", "auth-fail"), {
      textNotices: COPILOT_NOTICES,
    });
    expect(turn.status).toBe("failed");
    expect(turn.reply).toBe("");
    expect(turn.failure?.kind).toBe("auth");
    expect(turn.failure?.message).toMatch(
      /^Authentication failed with provider at http:\/\/127\.0\.0\.1:\d+\/v1 \(HTTP 401\)/,
    );
    expect(events.filter((event) => event.type === "retry")).toHaveLength(2);
  });

  it("a 429 after Copilot's own retries: rate-limit with the wait", () => {
    const { turn } = runPrompt(promptWindow("copilot", "rate-limit"), { textNotices: COPILOT_NOTICES });
    expect(turn.failure).toMatchObject({ kind: "rate-limit", resetsAt: "1s" });
    expect(turn.failure?.message).toMatch(/^Failed to get response from the AI model; retried 5 times/);
  });

  it("without the notices named, the same stream would read as a completed turn", () => {
    const { turn } = runPrompt(promptWindow("copilot", "auth-fail"));
    expect(turn.status).toBe("completed");
  });

  it("`Info: Operation cancelled by user` after a refusal is neither reply nor retry", () => {
    const { turn, events } = runPrompt(promptWindow("copilot", "tool-reject"), {
      textNotices: COPILOT_NOTICES,
    });
    expect(turn).toMatchObject({ status: "completed", reply: "" });
    expect(events.some((event) => event.type === "retry")).toBe(false);
    expect(tools(events).at(-1)).toMatchObject({ type: "tool-end", ok: false });
  });
});

describe("pi-acp 0.0.34 driving pi 1.6.0", () => {
  /** What pi's row names (acp.emptyTurnFails). */
  const EMPTY = "its ACP server ended the turn with nothing said";

  it("three turns on one session: each reply from its chunks", () => {
    const replies = [0, 1, 2].map(
      (nth) => runPrompt(promptWindow("pi-acp", "turn", nth), { emptyTurnFails: EMPTY }).turn,
    );
    expect(replies.map((turn) => [turn.status, turn.reply])).toEqual([
      ["completed", "MOCK-REPLY-1"],
      ["completed", "MOCK-REPLY-2"],
      ["completed", "MOCK-REPLY-3"],
    ]);
  });

  it.each(["auth-fail", "rate-limit-once"])(
    "%s: the model's error is answered end_turn with nothing said, a failure where the row says so",
    (name) => {
      const window = promptWindow("pi-acp", name);
      expect(runPrompt(window).turn).toMatchObject({ status: "completed", reply: "" });
      const { turn } = runPrompt(window, { emptyTurnFails: EMPTY });
      expect(turn.status).toBe("failed");
      expect(turn.failure).toMatchObject({ kind: "other", message: EMPTY });
    },
  );

  describe("a 429 pi retries and recovers from", () => {
    const window = promptWindow("pi-acp", "retry-recovered");
    const notices = adapter("pi")?.acp?.textNotices;

    it("its retry notices, sent as message text, are not the reply", () => {
      expect(notices).toBeDefined();
      const { turn, events } = runPrompt(window, {
        emptyTurnFails: EMPTY,
        ...(notices && { textNotices: notices }),
      });
      expect(turn).toMatchObject({ status: "completed", reply: "MOCK-REPLY-1" });
      expect(events.filter((event) => event.type === "retry")).toEqual([
        {
          type: "retry",
          message: "Retrying (attempt 1/2, waiting 1s)...",
          attempt: 1,
          maxAttempts: 2,
          delayMs: 1000,
        },
      ]);
      expect(
        events
          .filter((event) => event.type === "text")
          .map((event) => event.type === "text" && event.text)
          .join(""),
      ).toBe("MOCK-REPLY-1");
    });

    it("without the row's notices the reply would carry them", () => {
      expect(runPrompt(window).turn.reply).toBe(
        "Retrying (attempt 1/2, waiting 1s)...MOCK-REPLY-1Retry finished, resuming.",
      );
    });

    it.each([
      ["Retrying...", true],
      ["Context nearing limit, running automatic compaction...", true],
      ["Automatic compaction finished; context was summarized to continue the session.", true],
      ["Retrying is what I would do.", false],
      ["MOCK Retry finished, resuming.", false],
    ])("%s: a notice, %s (else reply text)", (text, notice) => {
      expect(notices?.info.test(text)).toBe(notice);
    });
  });
});

describe("damaged and interleaved streams", () => {
  const window = promptWindow("qwen", "tool-default");
  const clean = runPrompt(window).turn;
  const [first = "", ...rest] = window.lines;

  it("garbage, truncated and concatenated lines are counted; the rest still parses", () => {
    const garbage = [
      "garbage from a wrapper script",
      '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"',
      '{"jsonrpc":"2.0","id":9,"result":{}}{"jsonrpc":"2.0","id":10,"result":{}}',
      "42",
      '{"not":"json-rpc"}',
      '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"x"}}',
    ];
    const { turn } = runPrompt(window, {}, ANSWERED, [first, ...garbage, ...rest]);
    expect(turn).toEqual({ ...clean, badLines: garbage.length });
  });

  it("another session's updates on the same connection are not this turn's", () => {
    const other = rest.map((line) => line.replaceAll(window.sessionId, "another-session"));
    const mixed = rest
      .flatMap((line, index) => [other[index] ?? "", line])
      .filter((line) => !/"id":2,/.test(line));
    const answer = rest.find((line) => line.includes('"id":2,"result"')) ?? "";
    const { turn } = runPrompt(window, {}, ANSWERED, [first, ...mixed, answer]);
    expect(turn).toEqual(clean);
  });

  it("a stream cut before the answer: the reply so far, and the end's reason as the status", () => {
    const cut = window.lines.slice(0, -3);
    const died = runPrompt(window, {}, { exitCode: null, signal: "SIGKILL", stderrTail: "" }, cut).turn;
    expect(died.status).toBe("failed");
    expect(died.failure?.message).toMatch(/was ended by SIGKILL without a final result event/);
    const timedOut = runPrompt(
      window,
      {},
      { exitCode: null, signal: "SIGTERM", stderrTail: "", termination: "timeout" },
      cut,
    );
    expect(timedOut.turn.status).toBe("timeout");
  });

  it("the client's calls give the same turn as the agent's lines", () => {
    const parser = createAcpTurnParser({ sessionId: window.sessionId });
    for (const line of window.lines) {
      const message = JSON.parse(line) as {
        method?: string;
        params?: unknown;
        result?: unknown;
        id?: number;
      };
      if (message.method === "session/update") parser.update(message.params);
      else if (message.method === "session/request_permission") parser.permission(message.params);
      else if (message.id === window.promptId && message.method === undefined) parser.answer(message.result);
    }
    expect(parser.finish(ANSWERED)).toEqual(clean);
  });

  it("a refusal the agent never reports ends the call when the client says so", () => {
    const gemini = promptWindow("gemini", "tool-reject");
    const parser = createAcpTurnParser({ sessionId: gemini.sessionId, promptId: gemini.promptId });
    const events = gemini.lines.flatMap((line) => parser.push(line));
    const id = "run_shell_command__run_shell_command_1796321357143_0";
    expect(tools(events)).toEqual([
      { type: "tool-start", id, name: "execute", summary: "touch scv-tool-probe.txt" },
    ]);
    expect(parser.refused(id)).toEqual([{ type: "tool-end", id, name: "execute", ok: false }]);
    expect(parser.refused(id)).toEqual([]);
  });
});

describe("claude-agent-acp 0.101.0 (Claude Code 2.1.332) over ACP", () => {
  it("a pending `Terminal` call with an empty input starts when its input arrives, named by the tool", () => {
    const { turn, events } = runPrompt(promptWindow("claude-acp", "tool-default"));
    expect(tools(events)).toEqual([
      { type: "tool-start", id: "toolu_mock_0007", name: "Bash", summary: "$ touch scv-tool-probe.txt" },
      { type: "tool-end", id: "toolu_mock_0007", name: "Bash", ok: true },
    ]);
    expect(turn).toMatchObject({
      status: "completed",
      usage: { input: 25833, output: 25, cached: 0, cacheWrite: 0 },
    });
  });

  it("a 401 with retries off: ACP's auth_required (-32000)", () => {
    expect(runPrompt(promptWindow("claude-acp", "auth-fail-once")).turn.failure).toEqual({
      kind: "auth",
      message: "Authentication required",
    });
  });

  it("a 429 with retries off: -32603 with the API's words", () => {
    const { turn } = runPrompt(promptWindow("claude-acp", "rate-limit-once"));
    expect(turn.failure).toEqual({
      kind: "rate-limit",
      message:
        "Internal error: API Error: Request rejected (429) · This request would exceed the rate limit for your organization of 50 requests per minute. (mock)",
    });
  });
});

describe("codex-acp 2.6.0 (Codex 0.171.0) over ACP", () => {
  it("a first turn with its usage", () => {
    const { turn } = runPrompt(promptWindow("codex-acp", "turn"));
    expect(turn).toMatchObject({ status: "completed", reply: "MOCK-REPLY-1" });
    expect(turn.usage).toEqual({ input: 10700, cached: 0, cacheWrite: 0, output: 6, reasoning: 0 });
  });

  it("a 429 is answered end_turn after a systemError status and the error as text: a failure", () => {
    const { turn, events } = runPrompt(promptWindow("codex-acp", "rate-limit"));
    expect(turn).toMatchObject({ status: "failed", reply: "" });
    expect(turn.failure).toEqual({
      kind: "rate-limit",
      message: "exceeded retry limit, last status: 429 Too Many Requests, request id: req_mock_429",
    });
    expect(events.filter((event) => event.type === "retry")[0]).toEqual({
      type: "retry",
      message: "Reconnecting... 1/5",
      status: 429,
      // Its class, as a per-turn process's retry carries it: what a time limit cut short.
      kind: "rate-limit",
    });
    expect(events.some((event) => event.type === "text")).toBe(false);
  });

  it("a 401: auth_required", () => {
    expect(runPrompt(promptWindow("codex-acp", "auth-fail")).turn.failure).toEqual({
      kind: "auth",
      message: "Authentication required",
    });
  });
});

describe("mode changes reported in a turn", () => {
  it("a config_option_update carrying the mode option becomes a mode event (Copilot's URL ids)", () => {
    const window = promptWindow("copilot", "tool-full");
    const update = readFileSync(`${FIXTURES}acp/copilot/tool-full.stdout`, "utf8")
      .split("\n")
      .find((line) => line.includes('"sessionUpdate":"config_option_update"'));
    const parser = createAcpTurnParser({ sessionId: window.sessionId, promptId: window.promptId });
    expect(parser.push(update ?? "")).toEqual([
      { type: "session", sessionId: window.sessionId },
      { type: "mode", mode: "https://agentclientprotocol.com/protocol/session-modes#agent" },
    ]);
  });
});

describe("errors answering a model switch (captured `model` cases)", () => {
  /** The error answers in a capture's stdout. */
  function errors(cli: string): unknown[] {
    return readFileSync(`${FIXTURES}acp/${cli}/model.stdout`, "utf8")
      .split("\n")
      .filter((line) => line.includes('"error":{'))
      .map((line) => (JSON.parse(line) as { error: unknown }).error);
  }

  it("an unknown model is a model failure, in each agent's words", () => {
    expect(errors("qwen").map(failureOfRpcError)).toEqual([
      { kind: "model", message: "Model 'no-such-model' not found for authType 'openai'" },
    ]);
    expect(errors("opencode").map(failureOfRpcError)[0]).toEqual({
      kind: "model",
      message: "Invalid params: model not found: no-such-model",
    });
    expect(errors("claude-acp").map(failureOfRpcError)).toEqual([
      { kind: "model", message: "Invalid params: Invalid value for config option model: no-such-model" },
    ]);
  });

  it("a bare `Invalid params` says nothing more (codex-acp)", () => {
    expect(errors("codex-acp").map(failureOfRpcError)).toEqual([
      { kind: "other", message: "Invalid params" },
    ]);
  });

  it("a model on an unreachable service (OpenCode Zen, offline) is not an auth or model failure", () => {
    expect(errors("opencode").map(failureOfRpcError)[1]).toMatchObject({ kind: "other" });
  });
});
