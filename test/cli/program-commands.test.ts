// Which of scv's commands a command line builds (src/cli/program.ts, commandsReached): the one it
// names, none for the version, all of them for help or an unknown command — and that a command line
// reads the same, usage errors and all, as with every command built.

import { CommanderError } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram, commandsReached, GROUPED_COMMANDS, runProgram } from "../../src/cli/program.js";
import { EXIT, ScvError } from "../../src/errors.js";
import type { CliIo } from "../../src/io.js";
import { memoryIo } from "../helpers/io.js";

const topLevel = (only?: readonly string[]) =>
  buildProgram(memoryIo(), undefined, only).commands.map((command) => command.name());

type Outcome = [code: number, stdout: string, stderr: string];

/** The exit code and output, a usage error scv reports itself (an unknown command) as cli/main.ts
 * prints it. */
async function outcome(parse: (io: CliIo) => Promise<number>): Promise<Outcome> {
  const io = memoryIo();
  let code: number;
  try {
    code = await parse(io);
  } catch (error) {
    if (!(error instanceof ScvError)) throw error;
    io.stderr.write(`scv: ${error.message}\n`);
    code = error.exitCode;
  }
  return [code, String(io.stdout.read() ?? ""), String(io.stderr.read() ?? "")];
}

/** runProgram's parse with every command built, as before commandsReached. */
const runWithEveryCommand = (argv: readonly string[]) =>
  outcome(async (io) => {
    try {
      await buildProgram(io).parseAsync([...argv], { from: "user" });
      return io.exitCode;
    } catch (error) {
      if (!(error instanceof CommanderError)) throw error;
      return error.code === "commander.version" ? EXIT.ok : EXIT.usage;
    }
  });

const run = (argv: readonly string[]) => outcome((io) => runProgram(argv, io));

describe("the commands a command line builds", () => {
  it("builds the command named first alone, none for the version, every one otherwise", () => {
    expect(commandsReached(["delegate", "claude", "hi"])).toEqual(["delegate"]);
    expect(commandsReached(["kill", "claude-abc123"])).toEqual(["kill"]);
    expect(commandsReached(["--version"])).toEqual([]);
    expect(commandsReached(["-V"])).toEqual([]);
    // Help lists every command; an unknown one is told the nearest; options first: every command.
    expect(commandsReached(["delegate", "--help"])).toBeUndefined();
    expect(commandsReached(["help", "delegate"])).toBeUndefined();
    expect(commandsReached(["delegat", "claude", "hi"])).toBeUndefined();
    expect(commandsReached(["--bogus", "delegate"])).toBeUndefined();
    expect(commandsReached([])).toBeUndefined();
    expect(topLevel(["delegate"])).toEqual(["delegate"]);
    expect(topLevel([])).toEqual([]);
  });

  it("reaches every top-level command scv has by its name, and names no other", () => {
    const every = topLevel();
    expect(every.length).toBeGreaterThan(15);
    expect([...GROUPED_COMMANDS].sort()).toEqual([...every].sort());
    for (const name of every) {
      const only = commandsReached([name]);
      expect(only, name).toEqual([name]);
      expect(topLevel(only), name).toContain(name);
    }
  });

  it("reads a command line as with every command built: the version, usage errors, suggestions", async () => {
    for (const argv of [
      ["--version"],
      ["-V"],
      ["--version", "delegate"],
      ["delegate"],
      ["delegate", "--jsn", "claude", "hi"],
      ["delegate", "--policy", "yolo", "claude", "hi"],
      ["delegate", "claude", "-x"],
      ["delegate", "--model"],
      ["delegat", "claude", "hi"],
      ["--bogus"],
      ["kill"],
      ["logs", "--bogus", "x"],
      ["conversations", "rm"],
      ["conversations", "lst"],
      ["agents", "login"],
      ["agents", "logn", "claude"],
      ["mcp", "install"],
      ["diff", "--bogus"],
      ["usage", "--since"],
    ]) {
      expect([argv, await run(argv)]).toEqual([argv, await runWithEveryCommand(argv)]);
    }
  });
});
