// A diff made into review parts (src/review/split.ts): files packed in order under the limit, and
// every file left out named with why.

import { describe, expect, it } from "vitest";
import type { DiffFile } from "../../src/review/diff.js";
import { splitDiff } from "../../src/review/split.js";

function changed(path: string, bytes: number, extra: Partial<DiffFile> = {}): DiffFile {
  const head = `diff --git a/${path} b/${path}\n`;
  return {
    path,
    status: "modified",
    added: 1,
    removed: 0,
    binary: false,
    lines: [{ start: 1, end: 1 }],
    patch: head + "+".repeat(Math.max(0, bytes - head.length)),
    ...extra,
  };
}

function paths(parts: readonly (readonly DiffFile[])[]): string[][] {
  return parts.map((part) => part.map((file) => file.path));
}

describe("splitDiff", () => {
  it("keeps a diff under the limit in one part", () => {
    const plan = splitDiff([changed("a", 100), changed("b", 100)], { maxBytes: 1000 });
    expect(paths(plan.parts)).toEqual([["a", "b"]]);
    expect(plan.skipped).toEqual([]);
  });

  it("splits by file, in order, never a part over the limit", () => {
    const files = [
      changed("a", 400),
      changed("b", 400),
      changed("c", 300),
      changed("d", 1000),
      changed("e", 1),
    ];
    const plan = splitDiff(files, { maxBytes: 1000 });
    expect(paths(plan.parts)).toEqual([["a", "b"], ["c"], ["d"], ["e"]]);
    for (const part of plan.parts) {
      expect(part.reduce((sum, file) => sum + Buffer.byteLength(file.patch), 0)).toBeLessThanOrEqual(1000);
    }
  });

  it("names each file left out and why: binary, generated, over the limit on its own", () => {
    const files = [
      changed("logo.png", 80, { binary: true, added: 0 }),
      changed("package-lock.json", 200, { generated: "lockfile" }),
      changed("huge.ts", 5000),
      changed("small.ts", 100),
      changed("é.ts", 1001),
    ];
    const plan = splitDiff(files, { maxBytes: 1000 });
    expect(paths(plan.parts)).toEqual([["small.ts"]]);
    expect(plan.skipped).toEqual([
      { path: "logo.png", reason: "binary", detail: "binary" },
      { path: "package-lock.json", reason: "generated", detail: "generated: lockfile" },
      {
        path: "huge.ts",
        reason: "too-large",
        detail: "its diff is 5000 bytes, over the 1000 of one review part",
      },
      {
        path: "é.ts",
        reason: "too-large",
        detail: "its diff is 1003 bytes, over the 1000 of one review part",
      },
    ]);
    // Every file is either in a part or left out.
    const placed = [...plan.parts.flat().map((file) => file.path), ...plan.skipped.map((file) => file.path)];
    expect(placed.sort()).toEqual(files.map((file) => file.path).sort());
  });

  it("makes no part of a diff with nothing to read", () => {
    expect(splitDiff([], { maxBytes: 10 })).toEqual({ parts: [], skipped: [] });
    expect(splitDiff([changed("x.bin", 10, { binary: true })], { maxBytes: 10 }).parts).toEqual([]);
  });
});
