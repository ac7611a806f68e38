// Finding an agent's executable (src/executable.ts): the first executable regular file along the
// search directories, as a shell finds a command.

import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findExecutable } from "../../src/executable.js";

let root = "";
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "scv-executable-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function file(path: string, mode: number): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, "#!/bin/sh\n");
  chmodSync(path, mode);
  return path;
}

describe("findExecutable", () => {
  it("passes over folders, files it may not execute, and missing folders", () => {
    const [a, b, c, d] = ["a", "b", "c", "d"].map((dir) => join(root, dir)) as [
      string,
      string,
      string,
      string,
    ];
    mkdirSync(join(a, "codex"), { recursive: true });
    file(join(b, "codex"), 0o644);
    const found = file(join(c, "codex"), 0o755);
    file(join(d, "codex"), 0o755);
    expect(findExecutable("codex", [join(root, "missing"), "", a, b, c, d])).toBe(found);
    expect(findExecutable("codex", [a, b])).toBeUndefined();
  });

  it("follows a symlink to an executable (npm's bin links) and gives the link's path", () => {
    const target = file(join(root, "lib", "cli.js"), 0o755);
    mkdirSync(join(root, "bin"));
    symlinkSync(target, join(root, "bin", "claude"));
    expect(findExecutable("claude", [join(root, "bin")])).toBe(join(root, "bin", "claude"));
    symlinkSync(join(root, "nowhere"), join(root, "bin", "dangling"));
    expect(findExecutable("dangling", [join(root, "bin")])).toBeUndefined();
  });

  it("takes a command with a slash as a path, relative to the given folder, and searches nothing", () => {
    const tool = file(join(root, "tools", "pi"), 0o755);
    file(join(root, "bin", "pi"), 0o755);
    expect(findExecutable("tools/pi", [join(root, "bin")], root)).toBe(tool);
    expect(findExecutable(tool, [])).toBe(tool);
    expect(findExecutable("tools/none", [join(root, "bin")], root)).toBeUndefined();
  });
});
