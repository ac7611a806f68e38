import { describe, expect, it } from "vitest";
import { earlyVerdict, watchVerdict } from "../../src/turn/early-verdict.js";

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

describe("watchVerdict", () => {
  it("settles once, and not after scv began ending the CLI", () => {
    const retry = {
      type: "retry",
      message: "authentication_failed (401)",
      status: 401,
      kind: "auth",
    } as const;
    const stopped = watchVerdict();
    expect(stopped.observe(retry, true)).toBeUndefined();
    const watch = watchVerdict();
    expect(watch.observe(retry, false)?.kind).toBe("auth");
    expect(watch.observe(retry, false)).toBeUndefined();
    expect(watch.early?.kind).toBe("auth");
  });

  it("keeps the last retry until the CLI moves on; session, mode and usage are no moving on", () => {
    const watch = watchVerdict();
    const retry = { type: "retry", message: "rate_limit (429)", status: 429, kind: "rate-limit" } as const;
    watch.observe(retry, false);
    watch.observe({ type: "session", sessionId: "s" }, false);
    watch.observe({ type: "usage", usage: {} }, false);
    expect(watch.retrying).toEqual(retry);
    watch.observe({ type: "text", text: "hi" }, false);
    expect(watch.retrying).toBeUndefined();
  });
});
