import { describe, expect, it } from "vitest";
import { readableApiError } from "../../src/parsers/gemini-stream-json.js";
import { PrettyObjectAssembler } from "../../src/parsers/pretty-object.js";
import { jsonLines, parse, runFixture } from "./run.js";

const INIT = { type: "init", timestamp: "2026-04-30T12:16:50.412Z", session_id: "sess-1", model: "auto" };
const SUCCESS = {
  type: "result",
  status: "success",
  stats: { total_tokens: 12898, input_tokens: 12601, output_tokens: 1, cached: 8148, input: 4453 },
};

function assistant(content: string) {
  return { type: "message", role: "assistant", content, delta: true };
}

describe("gemini-stream-json traps", () => {
  it("reads the pretty-printed --output-format json object spread over many lines", () => {
    const { turn } = runFixture("gemini-stream-json", "gemini", "json-output");
    expect(turn).toEqual({
      status: "completed",
      reply: "MOCK-REPLY-1",
      sessionId: "3df7c9fb-01d5-4918-ad13-9da397ec056e",
      usage: { input: 7000, cached: 173, output: 1, reasoning: 17 },
      cumulativeUsage: false,
      badLines: 0,
    });
  });

  it("reads a one-line json object too, and its error field as a failure", () => {
    const object = {
      session_id: "s",
      response: "",
      error: { type: "INVALID_STREAM", message: "Model stream ended with an invalid chunk" },
    };
    const { turn } = parse("gemini-stream-json", `${JSON.stringify(object)}\n`, { exitCode: 1 });
    expect([turn.status, turn.sessionId, turn.failure]).toEqual([
      "failed",
      "s",
      { kind: "other", message: "Model stream ended with an invalid chunk" },
    ]);
  });

  it("counts a pretty object that never closes as one bad line", () => {
    const { turn } = parse("gemini-stream-json", '{\n  "response": "cut', { exitCode: 1 });
    expect(turn.badLines).toBe(1);
    expect(turn.status).toBe("failed");
  });

  it("bounds a pretty object and recovers after it", () => {
    const assembler = new PrettyObjectAssembler(20);
    expect(assembler.push("{")).toEqual({ kind: "pending" });
    expect(assembler.push(`  "response": "${"x".repeat(40)}"`)).toEqual({ kind: "pending" });
    expect(assembler.push("}")).toEqual({ kind: "overflow" });
    expect(assembler.push('{"a":1}')).toEqual({ kind: "line", text: '{"a":1}' });
    expect(assembler.push("{")).toEqual({ kind: "pending" });
    expect(assembler.push('  "a": 1')).toEqual({ kind: "pending" });
    expect(assembler.push("}")).toEqual({ kind: "object", text: '{\n  "a": 1\n}' });
  });

  it("keeps only the text after the last tool call, as JSON mode's response does", () => {
    const stream = jsonLines(
      INIT,
      { type: "message", role: "user", content: "Read the file" },
      assistant("Let me read it."),
      {
        type: "tool_use",
        tool_name: "read_file",
        tool_id: "read-123",
        parameters: { file_path: "/path/to/file.txt" },
      },
      { type: "tool_result", tool_id: "read-123", status: "success", output: "hello" },
      assistant("It says "),
      assistant("hello."),
      SUCCESS,
    );
    const { turn, events } = parse("gemini-stream-json", stream);
    expect(turn.reply).toBe("It says hello.");
    expect(turn.usage).toEqual({ input: 4453, cached: 8148, output: 1 });
    expect(events.filter((event) => event.type.startsWith("tool"))).toEqual([
      { type: "tool-start", id: "read-123", name: "read_file", summary: "read /path/to/file.txt" },
      { type: "tool-end", id: "read-123", name: "read_file", ok: true },
    ]);
  });

  it("treats error events as non-fatal and completes on result success", () => {
    const stream = jsonLines(
      INIT,
      { type: "error", severity: "warning", message: "Loop detected" },
      assistant("ok"),
      SUCCESS,
    );
    const { turn } = parse("gemini-stream-json", stream);
    expect([turn.status, turn.failure]).toEqual(["completed", undefined]);
  });

  it("reads TerminalQuotaError as a rate limit", () => {
    const stream = jsonLines(INIT, {
      type: "result",
      status: "error",
      error: { type: "TerminalQuotaError", message: "You have exhausted your daily quota on this model." },
    });
    expect(parse("gemini-stream-json", stream, { exitCode: 1 }).turn.failure?.kind).toBe("rate-limit");
  });

  it("reads exit 41 as an auth failure even without stderr", () => {
    const { turn } = parse("gemini-stream-json", "", { exitCode: 41 });
    expect(turn.failure).toEqual({
      kind: "auth",
      message: "exited with code 41 without a final result event",
    });
  });

  it("fails an INVALID_STREAM result that has no error field", () => {
    const stream = jsonLines(INIT, assistant("partial"), { type: "result", status: "error" });
    const { turn } = parse("gemini-stream-json", stream, { exitCode: 1 });
    expect([turn.status, turn.failure?.message]).toEqual(["failed", "Gemini reported an error"]);
  });

  it("reads an API error passed on as the response's JSON as one readable line (its 401)", () => {
    const { turn } = runFixture("gemini-stream-json", "gemini", "auth-fail");
    expect(turn.failure).toEqual({
      kind: "auth",
      message: "API key not valid. Please pass a valid API key. (mock) (401 UNAUTHENTICATED)",
    });
    const cases: [string, string][] = [
      ['[API Error: {"error":{"code":403,"message":"Forbidden"}}]', "Forbidden (403)"],
      ['[API Error: {"error":{"message":"no code"}}]', "no code"],
      // Anything else stays as it came.
      ["[API Error: You exceeded your current quota]", "[API Error: You exceeded your current quota]"],
      ['[API Error: {"error":"flat"}]', '[API Error: {"error":"flat"}]'],
      ['[API Error: {"error":{"code":500}}]', '[API Error: {"error":{"code":500}}]'],
      ["[API Error: {not json}]", "[API Error: {not json}]"],
      ['{"error":{"message":"bare"}}', '{"error":{"message":"bare"}}'],
    ];
    for (const [raw, readable] of cases) expect([raw, readableApiError(raw)]).toEqual([raw, readable]);
  });
});
