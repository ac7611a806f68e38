import { describe, expect, it } from "vitest";
import {
  classifyErrorText,
  failureFromStderr,
  kindFromStatus,
  lastErrorLine,
  resetTimeIn,
  unavailableModel,
} from "../../src/parsers/failure.js";

describe("classifyErrorText", () => {
  it.each([
    ["Invalid API key · Please run /login", "auth"],
    ["Not logged in · Please run /login", "auth"],
    ["Failed to authenticate: OAuth session expired and could not be refreshed", "auth"],
    ["unexpected status 401 Unauthorized: Incorrect API key provided", "auth"],
    ["No API key found for the selected model.", "auth"],
    ["Error: No authentication information found.", "auth"],
    ["Your access token could not be refreshed because your refresh token was already used.", "auth"],
    ["API Error: Request rejected (429) · exceeds the rate limit", "rate-limit"],
    ["exceeded retry limit, last status: 429 Too Many Requests", "rate-limit"],
    [
      "You've hit your usage limit. Upgrade to Pro (…) to purchase more credits or try again at 3:28 PM.",
      "rate-limit",
    ],
    ["RESOURCE_EXHAUSTED: Quota exceeded. Please switch to another /auth method", "rate-limit"],
    ["You're out of extra usage · resets Apr 24, 4am (Asia/Tokyo)", "rate-limit"],
    ["Credit balance is too low", "billing"],
    [
      "429 You exceeded your current quota, please check your plan and billing details. insufficient_quota",
      "billing",
    ],
    ["Your workspace is out of credits. Add credits to continue.", "billing"],
    [
      "--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons",
      "root-refused",
    ],
    // A model that does not exist or may not be used: the APIs' own messages (test/real/mock has
    // them as sent), also inside a CLI's wrapping, and a 403 that names the model.
    [
      "unexpected status 404 Not Found: The model `gpt-mock-missing` does not exist or you do not have access to it.",
      "model",
    ],
    [
      "unexpected status 403 Forbidden: Project `proj_mock` does not have access to model `gpt-mock-denied`",
      "model",
    ],
    [
      'API Error: 404 {"type":"error","error":{"type":"not_found_error","message":"model: claude-mock-missing"}}',
      "model",
    ],
    [
      "There's an issue with the selected model (claude-x). It may not exist or you may not have access to it.",
      "model",
    ],
    [
      "[API Error: models/gemini-mock-missing is not found for API version v1beta, or is not supported for generateContent.]",
      "model",
    ],
    ["403 Permission denied: this project is not allowed to use model gemini-mock-denied.", "model"],
    ["Error: code: model_not_found", "model"],
    ["Unknown model: sonnet-9", "model"],
    // A model that must be given and was not (Copilot CLI's bring-your-own-key mode).
    [
      "BYOK providers require an explicit model. Run `copilot help providers` for configuration details.",
      "model",
    ],
    ["Error: no model specified", "model"],
    ["403 Forbidden", "auth"],
    [
      "Model metadata for `gpt-local` not found. Defaulting to fallback metadata; this can degrade performance and cause issues.",
      "other",
    ],
    ["The model is overloaded. Please try again later.", "other"],
    ["stream disconnected before completion: Name does not resolve", "other"],
    ["No conversation found with session ID: 1234", "other"],
  ])("%s → %s", (text, kind) => {
    expect(classifyErrorText(text)).toBe(kind);
  });
});

describe("kindFromStatus", () => {
  it("names auth, billing and rate-limit statuses only", () => {
    expect([401, 403, 402, 429, 500, null, undefined].map(kindFromStatus)).toEqual([
      "auth",
      "auth",
      "billing",
      "rate-limit",
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe("unavailableModel", () => {
  it("names a model the account cannot use, which a 403 alone would call a failed sign-in", () => {
    expect(unavailableModel("Project `proj_mock` does not have access to model `gpt-5`")).toBe("model");
    expect(unavailableModel("invalid x-api-key")).toBeUndefined();
    expect(unavailableModel("No API key found for the selected model.")).toBeUndefined();
  });
});

describe("resetTimeIn", () => {
  it("reads an epoch after a pipe, Claude's resets wording and Codex's try again at", () => {
    expect(resetTimeIn("Claude AI usage limit reached|1755615600")).toBe("2025-08-19T15:00:00.000Z");
    expect(resetTimeIn("You've hit your limit · resets Feb 7, 11am (Asia/Seoul)")).toBe(
      "Feb 7, 11am (Asia/Seoul)",
    );
    expect(resetTimeIn("… purchase more credits or try again at 3:28 PM.")).toBe("3:28 PM");
    expect(resetTimeIn("rate limited")).toBeUndefined();
  });

  it("reads how long to wait: Gemini CLI's suggested retry, OpenAI's try again in", () => {
    expect(
      resetTimeIn(
        "[API Error: You exceeded your current quota, please check your plan and billing details. (mock)\nSuggested retry after 1s.]",
      ),
    ).toBe("1s");
    expect(resetTimeIn("Rate limit reached for requests per min (RPM). Please try again in 6m0s.")).toBe(
      "6m0s",
    );
    expect(resetTimeIn("Please try again in 20ms.")).toBe("20ms");
    expect(resetTimeIn("retry after 30 seconds")).toBe("30 seconds");
  });
});

describe("stderr", () => {
  const stderr = [
    "Warning: Basic terminal detected (TERM=dumb). Visual rendering will be limited.",
    "\u001b[31mError: quota exceeded for requests (429)\u001b[0m",
    "    at throwErrorIfNotOK (file:///bundle/chunk.js:267833:24)",
    "    at process.processTicksAndRejections (node:internal/process/task_queues:95:5) {",
    "}",
    "",
  ].join("\n");

  it("finds the last error-shaped line, past warnings, stack frames, braces and colours", () => {
    expect(lastErrorLine(stderr)).toBe("Error: quota exceeded for requests (429)");
  });

  it("classifies from it", () => {
    expect(failureFromStderr(stderr)).toEqual({
      kind: "rate-limit",
      message: "Error: quota exceeded for requests (429)",
    });
  });

  it("finds nothing in banners alone", () => {
    expect(
      failureFromStderr("YOLO mode is enabled. All tool calls will be automatically approved.\n"),
    ).toBeUndefined();
  });
});
