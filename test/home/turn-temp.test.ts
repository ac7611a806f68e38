// The turn's TMPDIR helpers: where the folder goes, which paths count as one, and removal through
// what tools leave behind.

import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTurnTemp, isTurnTemp, removeTurnTemp } from "../../src/home/turn-temp.js";

let parent: string;
beforeEach(() => {
  parent = mkdtempSync(join(tmpdir(), "scv-turn-temp-test-"));
});
afterEach(() => rmSync(parent, { recursive: true, force: true }));

describe("createTurnTemp", () => {
  it("makes a 0700 folder named after the turn in the user's TMPDIR", () => {
    const temp = createTurnTemp("claude-k3f9x2", { TMPDIR: parent });
    expect(temp).toBeDefined();
    expect(dirname(temp ?? "")).toBe(parent);
    expect(isTurnTemp(temp ?? "", "claude-k3f9x2")).toBe(true);
    expect(statSync(temp ?? "").mode & 0o777).toBe(0o700);
  });

  it("ignores a relative TMPDIR, and gives up on one it cannot write", () => {
    const temp = createTurnTemp("claude-k3f9x2", { TMPDIR: "tmp" });
    expect(dirname(temp ?? "")).toBe(tmpdir());
    removeTurnTemp(temp ?? "");
    expect(createTurnTemp("claude-k3f9x2", { TMPDIR: join(parent, "missing") })).toBeUndefined();
  });
});

describe("isTurnTemp", () => {
  it("accepts only the turn's own folder name, absolute", () => {
    expect(isTurnTemp("/tmp/scv-claude-k3f9x2-AbC123", "claude-k3f9x2")).toBe(true);
    expect(isTurnTemp("scv-claude-k3f9x2-AbC123", "claude-k3f9x2")).toBe(false);
    expect(isTurnTemp("/tmp/scv-claude-k3f9x2-AbC12", "claude-k3f9x2")).toBe(false);
    expect(isTurnTemp("/tmp/scv-claude-k3f9x2-AbC123/..", "claude-k3f9x2")).toBe(false);
    expect(isTurnTemp("/tmp/scv-codex-k3f9x2-AbC123", "claude-k3f9x2")).toBe(false);
    expect(isTurnTemp("/tmp", "claude-k3f9x2")).toBe(false);
    expect(isTurnTemp("/", "claude-k3f9x2")).toBe(false);
  });
});

describe("removeTurnTemp", () => {
  it("removes the folder and all in it, read-only folders included, never following a symlink out", () => {
    const temp = createTurnTemp("claude-k3f9x2", { TMPDIR: parent }) ?? "";
    const outside = join(parent, "outside");
    mkdirSync(outside);
    writeFileSync(join(outside, "keep"), "");
    const frozen = join(temp, "a", "frozen");
    mkdirSync(frozen, { recursive: true });
    writeFileSync(join(frozen, "file"), "");
    chmodSync(frozen, 0o555);
    symlinkSync(outside, join(temp, "link"));
    removeTurnTemp(temp);
    expect(existsSync(temp)).toBe(false);
    expect(existsSync(join(outside, "keep"))).toBe(true);
  });

  it("does nothing, and does not throw, when the folder is gone", () => {
    expect(() => removeTurnTemp(join(parent, "scv-claude-k3f9x2-gone00"))).not.toThrow();
  });
});
