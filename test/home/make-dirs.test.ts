// mkdir -p without Node's endless retry.

import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeDirs } from "../../src/home/make-dirs.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "scv-make-dirs-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("makeDirs", () => {
  it("makes the folder and its missing parents with the mode, and leaves an existing one be", () => {
    const dir = join(root, "a", "b", "c");
    makeDirs(dir, 0o700);
    expect(statSync(dir).isDirectory()).toBe(true);
    expect(statSync(join(root, "a")).mode & 0o777).toBe(0o700);
    expect(() => makeDirs(dir, 0o700)).not.toThrow();
  });

  it("throws EEXIST for a file in the way, and ENOTDIR below one", () => {
    writeFileSync(join(root, "file"), "");
    expect(() => makeDirs(join(root, "file"), 0o700)).toThrow(/EEXIST/);
    expect(() => makeDirs(join(root, "file", "x"), 0o700)).toThrow(/ENOTDIR/);
  });

  it.runIf(process.platform === "linux")(
    "throws ENOENT, once, where the file system makes no folder (/proc)",
    () => {
      expect(() => makeDirs(`/proc/scv-make-dirs-${process.pid}/x`, 0o700)).toThrow(/ENOENT/);
    },
  );
});
