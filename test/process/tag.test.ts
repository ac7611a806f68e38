// A helper's tag picks out what it started, and nothing another caller started: two copies of the
// module (as two worker threads of one process each load one) count from the same number in the
// same millisecond, and their tags must still differ, or ending one ends the other's processes.
// The second copy is imported under another id rather than by resetting the module registry, which
// would leave this worker's later test files with a second lifecycle module whose signal counts the
// first one's listeners do not see.

import { afterEach, describe, expect, it, vi } from "vitest";

type EndModule = typeof import("../../src/process/end.js");

afterEach(() => {
  vi.useRealTimers();
});

describe("newTag", () => {
  it("differs between two copies of the module at the same moment", async () => {
    // Two fresh copies: each counts from 1, as a new thread's would.
    // A query is another module id to vitest, so a copy of its own; TypeScript knows no such module.
    // @ts-expect-error
    const first = (await import("../../src/process/end.js?first-copy")) as EndModule;
    // @ts-expect-error
    const second = (await import("../../src/process/end.js?second-copy")) as EndModule;
    expect(second).not.toBe(first);
    vi.useFakeTimers({ now: new Date("2026-12-07T00:00:00Z"), toFake: ["Date"] });
    const values = new Set([first.newTag().value, second.newTag().value]);
    expect(values.size).toBe(2);
  });
});
