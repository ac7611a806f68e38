// A reply's prose never classifies a failure: a successful turn whose answer discusses rate
// limits, invalid API keys and billing is a success in every format.

import { describe, expect, it } from "vitest";
import type { OutputFormatKind } from "../../src/adapters.js";
import { jsonLines, parse } from "./run.js";

const PROSE =
  "The log shows 401 Unauthorized: invalid API key, then 429 Too Many Requests (rate limit, RESOURCE_EXHAUSTED). Not logged in? Check billing and credits.";

const SUCCESS_STREAMS: Readonly<Record<OutputFormatKind, string>> = {
  text: `${PROSE}\n`,
  "claude-stream-json": jsonLines(
    { type: "assistant", message: { id: "m", content: [{ type: "text", text: PROSE }] }, session_id: "s" },
    { type: "result", subtype: "success", is_error: false, result: PROSE, session_id: "s" },
  ),
  "qwen-stream-json": jsonLines({
    type: "result",
    subtype: "success",
    is_error: false,
    result: PROSE,
    session_id: "s",
  }),
  "cursor-stream-json": jsonLines({
    type: "result",
    subtype: "success",
    is_error: false,
    result: PROSE,
    session_id: "s",
  }),
  "amp-stream-json": jsonLines({
    type: "result",
    subtype: "success",
    is_error: false,
    result: PROSE,
    session_id: "T-1",
  }),
  "codex-jsonl": jsonLines(
    { type: "thread.started", thread_id: "t" },
    { type: "item.completed", item: { id: "item_0", type: "agent_message", text: PROSE } },
    { type: "turn.completed", usage: { input_tokens: 1, cached_input_tokens: 0, output_tokens: 1 } },
  ),
  "pi-json": jsonLines(
    { type: "session", id: "p" },
    {
      type: "message_end",
      message: { role: "assistant", content: [{ type: "text", text: PROSE }], stopReason: "stop" },
    },
    { type: "agent_end" },
  ),
  "gemini-stream-json": jsonLines(
    { type: "init", session_id: "g" },
    { type: "message", role: "assistant", content: PROSE, delta: true },
    { type: "result", status: "success" },
  ),
  "opencode-json": jsonLines(
    { type: "text", sessionID: "o", part: { type: "text", text: PROSE } },
    { type: "step_finish", sessionID: "o", part: { reason: "stop" } },
  ),
  "copilot-json": jsonLines(
    { type: "assistant.message", data: { messageId: "m", content: PROSE } },
    { type: "result", sessionId: "c", exitCode: 0 },
  ),
  "cline-json": jsonLines(
    { type: "agent_event", event: { type: "content_start", contentType: "text", text: PROSE } },
    { type: "agent_event", event: { type: "done", reason: "completed", text: PROSE } },
    { type: "run_result", finishReason: "completed", text: PROSE },
  ),
  "droid-stream-json": jsonLines(
    { type: "message", role: "assistant", text: PROSE, session_id: "d" },
    { type: "completion", finalText: PROSE, session_id: "d" },
  ),
};

describe.each(Object.entries(SUCCESS_STREAMS))("%s", (format, stream) => {
  it("completes with the prose as its reply and no failure", () => {
    const { turn } = parse(format as OutputFormatKind, stream);
    expect([turn.status, turn.reply, turn.failure]).toEqual(["completed", PROSE, undefined]);
  });
});
