// Where an agent's CLI is found: its row's per-user folders, scv's tool prefix, then PATH.

import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type AdapterDescriptor, adapter } from "../../src/adapters.js";
import { adapterSearchDirs, resolveAgentExecutable } from "../../src/agents/lookup.js";

describe("executable resolution", () => {
  function executable(dir: string, name: string): string {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, name);
    writeFileSync(path, "#!/bin/sh\nexit 0\n");
    chmodSync(path, 0o755);
    return path;
  }

  it("prefers the adapter's search dirs over PATH", () => {
    const root = mkdtempSync(join(tmpdir(), "scv-resolve-"));
    const inSearch = executable(join(root, "home/.local/bin"), "codex");
    const onPath = executable(join(root, "usr/bin"), "codex");
    const codex = adapter("codex") as AdapterDescriptor;
    const dirs = adapterSearchDirs(codex, join(root, "home"));
    expect(resolveAgentExecutable("codex", dirs, join(root, "usr/bin"))).toBe(inSearch);
    expect(resolveAgentExecutable("codex", [], join(root, "usr/bin"))).toBe(onPath);
  });

  it("puts scv's own tool prefix first", () => {
    const root = mkdtempSync(join(tmpdir(), "scv-resolve-"));
    const tools = executable(join(root, "scv/tools/bin"), "pi");
    executable(join(root, "home/.local/bin"), "pi");
    const pi = adapter("pi") as AdapterDescriptor;
    const dirs = adapterSearchDirs(pi, join(root, "home"), join(root, "scv/tools/bin"));
    expect(resolveAgentExecutable("pi", dirs, "")).toBe(tools);
  });

  it("uses a command containing / as given", () => {
    const root = mkdtempSync(join(tmpdir(), "scv-resolve-"));
    const custom = executable(join(root, "opt"), "my-claude");
    executable(join(root, "home/.local/bin"), "my-claude");
    expect(resolveAgentExecutable(custom, [join(root, "home/.local/bin")], "")).toBe(custom);
    expect(resolveAgentExecutable(join(root, "missing/claude"), [], "")).toBeUndefined();
  });

  it("finds nothing when the CLI is nowhere", () => {
    expect(resolveAgentExecutable("surely-not-an-agent-cli", [], "/nonexistent")).toBeUndefined();
  });
});
