import { describe, expect, it } from "vitest";
import { isoTimestamp } from "../../src/timestamp.js";

describe("isoTimestamp", () => {
  it("writes what toISOString writes", () => {
    const dates = [
      new Date(0),
      new Date(Date.UTC(2026, 11, 2, 18, 45, 11, 42)),
      new Date(Date.UTC(2000, 0, 1, 0, 0, 0, 0)),
      new Date(Date.UTC(1999, 11, 31, 23, 59, 59, 999)),
      new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 999)),
      new Date(Date.UTC(10_000, 0, 1)),
      new Date(-62_198_755_200_000),
      new Date(),
    ];
    for (let ms = 1_700_000_000_000; ms < 1_800_000_000_000; ms += 987_654_321_123) dates.push(new Date(ms));
    for (const date of dates) expect(isoTimestamp(date)).toBe(date.toISOString());
  });
});
