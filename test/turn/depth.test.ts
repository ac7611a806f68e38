// The delegation depth guard: SCV_DEPTH as scv reads it, and max_depth.

import { describe, expect, it } from "vitest";
import { refuseTooDeep, turnDepth } from "../../src/turn/depth.js";

describe("delegation depth", () => {
  it("reads SCV_DEPTH, counting anything else as 0", () => {
    expect(turnDepth({})).toBe(0);
    expect(turnDepth({ SCV_DEPTH: "2" })).toBe(2);
    expect(turnDepth({ SCV_DEPTH: "canary-value-of-SCV_DEPTH" })).toBe(0);
    expect(turnDepth({ SCV_DEPTH: "-1" })).toBe(0);
  });

  it("refuses a turn below more agents than max_depth allows (default 2)", () => {
    expect(() => refuseTooDeep({ SCV_DEPTH: "2" }, {})).not.toThrow();
    expect(() => refuseTooDeep({ SCV_DEPTH: "3" }, {})).toThrow(
      "delegation depth 3 is beyond max_depth 2 (agents started by agents through scv) — do this work yourself instead of delegating it, or raise max_depth in scv's config",
    );
    expect(() => refuseTooDeep({ SCV_DEPTH: "1" }, { max_depth: 0 })).toThrow(
      "delegation depth 1 is beyond max_depth 0",
    );
    expect(() => refuseTooDeep({}, { max_depth: 0 })).not.toThrow();
  });
});
