// A diff made into review parts (src/review/split.ts): files packed in order under the limit, and
// every file left out named with why.

import { describe, expect, it } from "vitest";
import type { DiffFile } from "../../src/review/diff.js";
import { splitDiff } from "../../src/review/split.js";
import { changedFile } from "./helpers.js";

function paths(parts: readonly (readonly DiffFile[])[]): string[][] {
  return parts.map((part) => part.map((file) => file.path));
}

describe("splitDiff", () => {
  it("keeps a diff under the limit in one part", () => {
    const plan = splitDiff([changedFile("a", 100), changedFile("b", 100)], { maxBytes: 1000 });
    expect(paths(plan.parts)).toEqual([["a", "b"]]);
    expect(plan.skipped).toEqual([]);
  });

  it("splits by file, in order, never a part over the limit", () => {
    const files = [
      changedFile("a", 400),
      changedFile("b", 400),
      changedFile("c", 300),
      changedFile("d", 1000),
      changedFile("e", 1),
    ];
    const plan = splitDiff(files, { maxBytes: 1000 });
    expect(paths(plan.parts)).toEqual([["a", "b"], ["c"], ["d"], ["e"]]);
    for (const part of plan.parts) {
      expect(part.reduce((sum, file) => sum + Buffer.byteLength(file.patch), 0)).toBeLessThanOrEqual(1000);
    }
  });

  it("names each file left out and why: binary, generated, over the limit on its own", () => {
    const files = [
      changedFile("logo.png", 80, { binary: true, added: 0 }),
      changedFile("package-lock.json", 200, { generated: "lockfile" }),
      changedFile("huge.ts", 5000),
      changedFile("small.ts", 100),
      // 1001 characters, 1005 bytes: the limit counts bytes.
      changedFile("é.ts", 1001),
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
        detail: "its diff is 1005 bytes, over the 1000 of one review part",
      },
    ]);
    // Every file is either in a part or left out.
    const placed = [...plan.parts.flat().map((file) => file.path), ...plan.skipped.map((file) => file.path)];
    expect(placed.sort()).toEqual(files.map((file) => file.path).sort());
  });

  it("makes no part of a diff with nothing to read", () => {
    expect(splitDiff([], { maxBytes: 10 })).toEqual({ parts: [], skipped: [] });
    expect(splitDiff([changedFile("x.bin", 10, { binary: true })], { maxBytes: 10 }).parts).toEqual([]);
  });
});
