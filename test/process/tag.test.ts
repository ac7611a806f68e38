// A helper's tag picks out what it started, and nothing another caller started: two copies of the
// module (as two worker threads of one process each load one) count from the same number in the
// same millisecond, and their tags must still differ, or ending one ends the other's processes.

import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  vi.useRealTimers();
  vi.resetModules();
});

describe("newTag", () => {
  it("differs between two copies of the module at the same moment", async () => {
    vi.useFakeTimers({ now: new Date("2026-12-07T00:00:00Z"), toFake: ["Date"] });
    const first = await import("../../src/process/end.js");
    vi.resetModules();
    const second = await import("../../src/process/end.js");
    expect(second).not.toBe(first);
    const values = new Set([first.newTag().value, second.newTag().value]);
    expect(values.size).toBe(2);
  });
});
