// The quick parse of `scv delegate …` (src/cli/delegate-options.ts) must agree with commander, which
// parses every other command line: wherever it answers, its positionals and options are exactly
// commander's; where it is unsure it answers nothing and commander decides.

import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { parseDelegateArgs } from "../../src/cli/delegate-options.js";
import type { CliIo } from "../../src/cli/io.js";
import { buildProgram } from "../../src/cli/program.js";

function io(): CliIo {
  return {
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    stdin: new PassThrough(),
    env: {},
    cwd: "/",
    exitCode: 0,
  };
}

/** What commander hands the delegate command for these arguments, or "error". */
async function commanderParse(args: readonly string[]): Promise<unknown> {
  const program = buildProgram(io());
  let parsed: unknown = "error";
  const delegate = program.commands.find((command) => command.name() === "delegate");
  delegate?.exitOverride().action((positionals: string[], options: Record<string, unknown>) => {
    parsed = { positionals, options: { ...options } };
  });
  try {
    await program.parseAsync(["delegate", ...args], { from: "user" });
  } catch {
    return "error";
  }
  return parsed;
}

const COMMON: readonly (readonly string[])[] = [
  ["claude", "hi"],
  ["hi"],
  ["claude", "é — 日本語\ntwo lines, a -dash and --dashes inside"],
  ["codex", "claude", "gemini", "Say hi"],
  ["-m", "sonnet", "claude", "hi", "--json"],
  ["claude:opus/high", "--effort", "low", "-q", "hi"],
  ["--env", "A=1", "--env", "B=two words", "claude", "hi"],
  ["-c", "claude-k3f9x2", "next"],
  ["--continue=claude-k3f9x2", "next"],
  ["claude", "--", "-x"],
  ["claude", "-"],
  ["--policy", "auto", "--timeout", "90s", "--idle-timeout=5m", "--parallel", "3", "a", "b", "hi"],
  ["-C", "/tmp/project", "--events", "--background", "claude", "hi"],
  ["--model", "", "claude", "hi"],
];

const ODD: readonly (readonly string[])[] = [
  [],
  ["--help"],
  ["-h"],
  ["claude", "-x"],
  ["--policy", "yolo", "claude", "hi"],
  ["--json=yes", "claude", "hi"],
  ["--model"],
  ["claude", "--model"],
  ["--model", "--json", "claude", "hi"],
  ["-mgpt", "claude", "hi"],
  ["-qm", "gpt", "claude", "hi"],
  ["--bogus", "claude", "hi"],
  ["--env"],
  ["--timeout", "-5s", "claude", "hi"],
];

describe("the quick parse of scv delegate", () => {
  it("answers for the common command lines, exactly as commander parses them", async () => {
    for (const args of COMMON) {
      const quick = parseDelegateArgs(args);
      expect([args, quick === undefined]).toEqual([args, false]);
      expect([args, quick]).toEqual([args, await commanderParse(args)]);
    }
  });

  it("leaves help, errors and doubtful spellings to commander, and never disagrees with it", async () => {
    for (const args of ODD) {
      const quick = parseDelegateArgs(args);
      if (quick !== undefined) expect([args, quick]).toEqual([args, await commanderParse(args)]);
    }
    for (const args of [["--help"], ["claude", "-x"], ["--policy", "yolo", "claude", "hi"], []]) {
      expect([args, parseDelegateArgs(args)]).toEqual([args, undefined]);
    }
  });
});
