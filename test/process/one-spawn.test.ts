// Every process scv starts goes through src/process/spawn.ts: one spawn call, one kill story
// (src/process/end.ts), one output bound. A module that spawns by itself (node:child_process, execa)
// would bring its own timeout and kill back.

import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));

/** The one exception: where there is no /proc (macOS), a process's start time is one synchronous
 * `ps` in the process table of os/, which is below src/process/ and may not import it. It starts nothing that
 * outlives it. */
const SYNCHRONOUS_PS = "os/processes.ts";

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** What a module starts processes with, other than through src/process/spawn.ts. */
function spawners(text: string): string[] {
  const found: string[] = [];
  // A type-only import starts nothing.
  for (const match of text.matchAll(
    /^(?:import|export)\s+(type\s+)?\{([^}]*)\}\s+from\s+"(node:child_process|child_process|execa)"/gm,
  )) {
    const names = (match[2] ?? "")
      .split(",")
      .map((name) => name.trim())
      .filter((name) => name !== "" && !name.startsWith("type "));
    if (match[1] === undefined && names.length > 0) found.push(`${match[3]}: ${names.join(", ")}`);
  }
  if (/import\(\s*"(node:child_process|child_process|execa)"\s*\)/.test(text)) found.push("a dynamic import");
  if (/^import\s+\*\s+as\s+\w+\s+from\s+"(node:)?child_process"/m.test(text)) found.push("child_process");
  return found;
}

describe("one way to run a process", () => {
  it("has one module that spawns: src/process/spawn.ts", () => {
    const found = Object.fromEntries(
      sources(SRC)
        .map((path) => [relative(SRC, path), spawners(readFileSync(path, "utf8"))] as const)
        .filter(([, names]) => names.length > 0),
    );
    expect(found).toEqual({
      "process/spawn.ts": ["node:child_process: spawn"],
      [SYNCHRONOUS_PS]: ["node:child_process: execFileSync"],
    });
  });

  it("names a spawn anywhere else", () => {
    expect(spawners('import { execa } from "execa";')).toEqual(["execa: execa"]);
    expect(spawners('import { type ChildProcess, spawn } from "node:child_process";')).toEqual([
      "node:child_process: spawn",
    ]);
    expect(spawners('import type { ChildProcess } from "node:child_process";')).toEqual([]);
    expect(spawners('const { execa } = await import("execa");')).toEqual(["a dynamic import"]);
    expect(spawners('export { execa } from "execa";')).toEqual(["execa: execa"]);
  });
});
