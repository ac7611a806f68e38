// A turn's status from its terminal event and how its process ended.

import { describe, expect, it } from "vitest";
import type { ProcessEnd } from "../../src/parsers/event-types.js";
import { turnStatus } from "../../src/parsers/turn-status.js";

const exited = (code: number | null, more: Partial<ProcessEnd> = {}): ProcessEnd => ({
  exitCode: code,
  signal: code === null ? "SIGTERM" : null,
  stderrTail: "",
  ...more,
});

describe("turnStatus", () => {
  it("completes only on a success event followed by exit 0", () => {
    expect(turnStatus(exited(0), "ok")).toBe("completed");
    expect(turnStatus(exited(0), undefined)).toBe("failed");
    expect(turnStatus(exited(1), "ok")).toBe("failed");
  });

  it("completes when scv ended a process that lingered after its success event", () => {
    expect(turnStatus(exited(null, { termination: "timeout", verdictAfterStop: false }), "ok")).toBe(
      "completed",
    );
  });

  it("takes scv's reason when the success, or a failure, came only after scv began ending the process", () => {
    expect(turnStatus(exited(0, { termination: "timeout", verdictAfterStop: true }), "ok")).toBe("timeout");
    expect(turnStatus(exited(0, { termination: "cancelled", verdictAfterStop: true }), "ok")).toBe(
      "cancelled",
    );
    expect(turnStatus(exited(1, { termination: "idle-timeout", verdictAfterStop: true }), "failed")).toBe(
      "timeout",
    );
  });

  it("takes scv's reason without any terminal event", () => {
    expect(turnStatus(exited(null, { termination: "cancelled" }), undefined)).toBe("cancelled");
  });
});
