import { existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { removeIfPresent } from "../../src/home/remove.js";

let root = "";
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "scv-remove-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("removeIfPresent", () => {
  it("removes a file, and a symlink itself (never its target), and is quiet about a missing one", () => {
    const file = join(root, "a.json");
    writeFileSync(file, "x");
    removeIfPresent(file);
    expect(existsSync(file)).toBe(false);
    removeIfPresent(file);
    removeIfPresent(join(root, "missing", "b.json"));

    const target = join(root, "target");
    writeFileSync(target, "kept");
    const link = join(root, "link");
    symlinkSync(target, link);
    removeIfPresent(link);
    expect(() => lstatSync(link)).toThrow(/ENOENT/);
    expect(existsSync(target)).toBe(true);
    const dangling = join(root, "dangling");
    symlinkSync(join(root, "nowhere"), dangling);
    removeIfPresent(dangling);
    expect(() => lstatSync(dangling)).toThrow(/ENOENT/);
  });

  it("throws for what it cannot remove: a folder", () => {
    const dir = join(root, "dir");
    mkdirSync(dir);
    expect(() => removeIfPresent(dir)).toThrow(/EISDIR|EPERM/);
  });
});
