import { describe, expect, it } from "vitest";
import { earlyVerdict } from "../../src/turn/verdict.js";

describe("earlyVerdict", () => {
  it("a retry of a refused credential settles the turn as an auth failure, redacted", () => {
    expect(
      earlyVerdict({
        type: "retry",
        message: "401 for key sk-ant-api03-abcdefghijklmnopqrstuvwx",
        status: 401,
        kind: "auth",
      }),
    ).toEqual({
      kind: "auth",
      message: expect.not.stringContaining("abcdefghijklmnop"),
    });
  });

  it("rate limits, other retries and every other event settle nothing", () => {
    expect(
      earlyVerdict({ type: "retry", message: "rate_limit (429)", status: 429, kind: "rate-limit" }),
    ).toBeUndefined();
    expect(
      earlyVerdict({ type: "retry", message: "authentication_failed (403)", status: 403 }),
    ).toBeUndefined();
    expect(earlyVerdict({ type: "error", message: "401", kind: "auth", terminal: false })).toBeUndefined();
  });
});
