// How `scv delegate …` is read (src/cli/program.ts, commander): what the delegate command gets for
// each spelling of its options, prompts that begin with `-`, and the usage errors.

import { describe, expect, it } from "vitest";
import { buildProgram, runProgram } from "../../src/cli/program.js";
import { memoryIo } from "../helpers/io.js";

/** What the delegate command is handed for these arguments, or "error". */
async function parse(args: readonly string[]): Promise<unknown> {
  const program = buildProgram(memoryIo());
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

describe("scv delegate's command line", () => {
  it("hands the command its agents, prompt and options, however they are spelled", async () => {
    const cases: [readonly string[], readonly string[], Record<string, unknown>][] = [
      [["claude", "hi"], ["claude", "hi"], {}],
      [["hi"], ["hi"], {}],
      [["codex", "claude", "Say hi"], ["codex", "claude", "Say hi"], {}],
      [["claude", "é — 日本語\n a -dash and --dashes"], ["claude", "é — 日本語\n a -dash and --dashes"], {}],
      [["-m", "sonnet", "claude", "hi", "--json"], ["claude", "hi"], { model: "sonnet", json: true }],
      [["-mgpt", "claude", "hi"], ["claude", "hi"], { model: "gpt" }],
      [["--model", "", "claude", "hi"], ["claude", "hi"], { model: "" }],
      [
        ["claude:opus/high", "--effort", "low", "-q", "hi"],
        ["claude:opus/high", "hi"],
        { effort: "low", quiet: true },
      ],
      [
        ["--env", "A=1", "--env", "B=two words", "claude", "hi"],
        ["claude", "hi"],
        { env: ["A=1", "B=two words"] },
      ],
      [["-c", "claude-k3f9x2", "next"], ["next"], { continue: "claude-k3f9x2" }],
      [["--continue=claude-k3f9x2", "next"], ["next"], { continue: "claude-k3f9x2" }],
      // After `--` a prompt may begin with `-`; `-` alone reads the prompt from stdin.
      [["claude", "--", "-x"], ["claude", "-x"], {}],
      [["--json", "claude", "--", "--json"], ["claude", "--json"], { json: true }],
      [["claude", "-"], ["claude", "-"], {}],
      [
        ["--policy", "auto", "--timeout", "90s", "--idle-timeout=5m", "--parallel", "3", "a", "b", "hi"],
        ["a", "b", "hi"],
        { policy: "auto", timeout: "90s", idleTimeout: "5m", parallel: "3" },
      ],
      [
        ["-C", "/tmp/project", "--events", "--background", "claude", "hi"],
        ["claude", "hi"],
        { cwd: "/tmp/project", events: true, background: true },
      ],
    ];
    for (const [args, positionals, options] of cases) {
      expect([args, await parse(args)]).toEqual([args, { positionals, options }]);
    }
  });

  it("refuses what it cannot read", async () => {
    for (const args of [
      [],
      ["claude", "-x"],
      ["--policy", "yolo", "claude", "hi"],
      ["--json=yes", "claude", "hi"],
      ["--model"],
      ["claude", "--model"],
      ["--bogus", "claude", "hi"],
      ["--env"],
    ]) {
      expect([args, await parse(args)]).toEqual([args, "error"]);
    }
  });

  it("says what is wrong in one line, suggests the option meant, and never echoes a value", async () => {
    const run = async (args: readonly string[]) => {
      const each = memoryIo();
      const code = await runProgram(["delegate", ...args], each);
      return [code, String(each.stderr.read() ?? "")];
    };
    expect(await run(["--jsn", "claude", "hi"])).toEqual([
      2,
      "scv: unknown option '--jsn' (Did you mean --json?) — see: scv delegate --help\n",
    ]);
    const [code, stderr] = await run(["--api-key=CANARY-7f3a", "claude", "hi"]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^scv: unknown option '--api-key=.*' — see: scv delegate --help\n$/);
    expect(stderr).not.toContain("CANARY");
    expect(await run(["-x", "claude", "hi"])).toEqual([
      2,
      "scv: unknown option '-x' — see: scv delegate --help\n",
    ]);
    expect(await run(["--policy", "yolo", "claude", "hi"])).toEqual([
      2,
      "scv: option '--policy <mode>' argument 'yolo' is invalid. Allowed choices are auto, default — see: scv delegate --help\n",
    ]);
  });

  it("takes an option with a space in it for the prompt it is, and says to put it after --", async () => {
    const run = async (args: readonly string[]) => {
      const each = memoryIo();
      const code = await runProgram(["delegate", ...args], each);
      return [code, String(each.stderr.read() ?? "")];
    };
    const cases: [readonly string[], string][] = [
      [
        ["codex", "-x means?"],
        "scv: unknown option '-x means?' — put the prompt after --: scv delegate codex -- '-x means?'\n",
      ],
      [
        ["-m", "o3", "codex:gpt-5/high", "claude", "--what is this?"],
        "scv: unknown option '--what is this?' — put the prompt after --: scv delegate codex:gpt-5/high claude -- '--what is this?'\n",
      ],
      [
        ["-c", "codex-k3f9x2", "-it's broken"],
        "scv: unknown option '-it's broken' — put the prompt after --: scv delegate -c codex-k3f9x2 -- '-it'\\''s broken'\n",
      ],
      [
        ["-ha ha"],
        "scv: unknown option '-ha ha' — put the prompt after --: scv delegate <agent> -- '-ha ha'\n",
      ],
      // Long, multi-line or carrying a value: only its first word is echoed.
      [
        ["codex", `-x ${"word ".repeat(20)}`],
        "scv: unknown option '-x …' — put the prompt after --: scv delegate codex -- '<prompt>'\n",
      ],
      [
        ["codex", "-x\nsecond line"],
        "scv: unknown option '-x …' — put the prompt after --: scv delegate codex -- '<prompt>'\n",
      ],
      [
        ["codex", "--api-key=CANARY-7f3a and more"],
        "scv: unknown option '--api-key …' — put the prompt after --: scv delegate codex -- '<prompt>'\n",
      ],
    ];
    for (const [args, line] of cases) expect([args, await run(args)]).toEqual([args, [2, line]]);
  });
});
