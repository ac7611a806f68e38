import { describe, expect, it } from "vitest";
import { jsonLines, parse, runFixture } from "./run.js";

const THREAD = { type: "thread.started", thread_id: "0199a213-81c0-7800-8aa1-bbab2a035a53" };
const COMPLETED = {
  type: "turn.completed",
  usage: { input_tokens: 24763, cached_input_tokens: 24448, output_tokens: 122 },
};

function agentMessage(text: string, id = "item_3") {
  return { type: "item.completed", item: { id, type: "agent_message", text } };
}

describe("codex-jsonl traps", () => {
  it("uses the -o file when the stream was cut mid-line and Codex exited 0", () => {
    const { turn } = runFixture("codex-jsonl", "codex", "truncated-with-backstop");
    expect(turn).toEqual({
      status: "completed",
      reply: "MOCK-REPLY-1",
      sessionId: "01a23648-e58b-7653-a8e1-80985ae37ee1",
      cumulativeUsage: true,
      badLines: 1,
    });
  });

  it("does not call exit 0 without turn.completed a success", () => {
    const { turn } = runFixture("codex-jsonl", "codex", "no-turn-completed");
    expect(turn.status).toBe("failed");
    expect(turn.reply).toBe("MOCK-REPLY-1");
    expect(turn.failure).toEqual({
      kind: "other",
      message: "exited with code 0 without a final result event",
    });
  });

  it("takes the last agent_message as the reply and normalizes input to exclude cached tokens", () => {
    const stream = jsonLines(
      THREAD,
      { type: "turn.started" },
      agentMessage("Let me look.", "item_0"),
      agentMessage("Yep — there’s a `README.md` in the repository root."),
      COMPLETED,
    );
    const { turn } = parse("codex-jsonl", stream);
    expect(turn).toEqual({
      status: "completed",
      reply: "Yep — there’s a `README.md` in the repository root.",
      sessionId: "0199a213-81c0-7800-8aa1-bbab2a035a53",
      usage: { input: 315, cached: 24448, output: 122 },
      cumulativeUsage: true,
      badLines: 0,
    });
  });

  it("accepts the older item_type/assistant_message spelling", () => {
    const stream = jsonLines(
      THREAD,
      { type: "item.completed", item: { id: "item_1", item_type: "assistant_message", text: "old shape" } },
      COMPLETED,
    );
    expect(parse("codex-jsonl", stream).turn.reply).toBe("old shape");
  });

  it("fails the turn on turn.failed even after an agent_message", () => {
    const stream = jsonLines(
      THREAD,
      agentMessage("Working on it"),
      { type: "error", message: "stream error: 500 Internal Server Error" },
      { type: "turn.failed", error: { message: "stream disconnected before completion" } },
    );
    const { turn } = parse("codex-jsonl", stream, { exitCode: 1 });
    expect(turn.status).toBe("failed");
    expect(turn.failure).toEqual({ kind: "other", message: "stream disconnected before completion" });
  });

  it("completes when a non-fatal error line comes before turn.completed", () => {
    const stream = jsonLines(
      THREAD,
      { type: "error", message: "Reconnecting... 1/5 (stream disconnected before completion)" },
      { type: "item.completed", item: { id: "item_0", type: "error", message: "model rerouted: a -> b" } },
      agentMessage("done"),
      COMPLETED,
    );
    const { turn } = parse("codex-jsonl", stream);
    expect([turn.status, turn.reply, turn.failure]).toEqual(["completed", "done", undefined]);
  });

  it("reads a usage limit with its reset time", () => {
    const message =
      "You've hit your usage limit. Upgrade to Pro (https://openai.com/chatgpt/pricing), visit https://chatgpt.com/codex/settings/usage to purchase more credits or try again at 3:28 PM.";
    const stream = jsonLines(THREAD, { type: "error", message }, { type: "turn.failed", error: { message } });
    expect(parse("codex-jsonl", stream, { exitCode: 1 }).turn.failure).toEqual({
      kind: "rate-limit",
      message,
      resetsAt: "3:28 PM",
    });
  });

  it("reads an empty workspace balance as billing", () => {
    const message = "Your workspace is out of credits. Add credits to continue.";
    const stream = jsonLines(THREAD, { type: "turn.failed", error: { message } });
    expect(parse("codex-jsonl", stream, { exitCode: 1 }).turn.failure?.kind).toBe("billing");
  });

  it("calls retried 429s a rate limit only when Codex then exits non-zero", () => {
    const stream = jsonLines(THREAD, {
      type: "error",
      message: "Reconnecting... 5/5 (exceeded retry limit, last status: 429 Too Many Requests)",
    });
    expect(parse("codex-jsonl", stream, { exitCode: 1 }).turn.failure?.kind).toBe("rate-limit");
    expect(parse("codex-jsonl", stream, { exitCode: 0 }).turn.failure?.kind).toBe("other");
  });

  it("reports commands and file changes as tools, a file change that only completes included", () => {
    const stream = jsonLines(
      THREAD,
      {
        type: "item.started",
        item: {
          id: "item_1",
          type: "command_execution",
          command: "bash -lc 'OPENAI_API_KEY=sk-abcdef123456 ls'",
          status: "in_progress",
        },
      },
      {
        type: "item.completed",
        item: { id: "item_1", type: "command_execution", command: "ls", exit_code: 2, status: "failed" },
      },
      {
        type: "item.completed",
        item: {
          id: "item_2",
          type: "file_change",
          changes: [
            { path: "src/a.ts", kind: "update" },
            { path: "b.ts", kind: "add" },
          ],
          status: "completed",
        },
      },
      { type: "item.started", item: { id: "item_4", type: "web_search", query: "vitest fake timers" } },
      { type: "item.completed", item: { id: "item_4", type: "web_search", query: "vitest fake timers" } },
      COMPLETED,
    );
    const { events } = parse("codex-jsonl", stream);
    expect(events.filter((event) => event.type === "tool-start" || event.type === "tool-end")).toEqual([
      { type: "tool-start", id: "item_1", name: "shell", summary: "$ bash -lc 'OPENAI_API_KEY=… ls'" },
      { type: "tool-end", id: "item_1", name: "shell", ok: false },
      { type: "tool-start", id: "item_2", name: "apply_patch", summary: "edit src/a.ts (+1 more)" },
      { type: "tool-end", id: "item_2", name: "apply_patch", ok: true },
      { type: "tool-start", id: "item_4", name: "web_search", summary: "search: vitest fake timers" },
      { type: "tool-end", id: "item_4", name: "web_search", ok: true },
    ]);
  });
});
