// Help texts that name agents from the table are filled in only when help may be shown
// (src/cli/table-help.ts), so that `scv --version` and a turn's start-up do not load the table for
// them. Every way of asking for help shows them filled in; no token is ever left in a help text.

import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { ADAPTERS, EXAMPLE_AGENTS } from "../../src/adapters.js";
import { buildProgram, runProgram } from "../../src/cli/program.js";
import { mayShowHelp } from "../../src/cli/table-help.js";
import { shippedHostApps } from "../../src/mcp/host-apps.js";
import { memoryIo } from "../helpers/io.js";

async function helpOf(argv: readonly string[]): Promise<string> {
  const io = memoryIo();
  const code = await runProgram(argv, io);
  expect(code, String(io.stderr.read() ?? "")).toBe(0);
  return String(io.stdout.read() ?? "");
}

/** Every command's path, hidden ones aside. */
function commandPaths(): string[][] {
  const paths: string[][] = [];
  const walk = (command: Command, path: string[]) => {
    for (const sub of command.commands) {
      if ((sub as unknown as { _hidden?: boolean })._hidden) continue;
      paths.push([...path, sub.name()]);
      walk(sub, [...path, sub.name()]);
    }
  };
  walk(buildProgram(memoryIo()), []);
  return paths;
}

const TOKEN = /\{[a-z-]+\}/;

describe("help texts that name agents from the table", () => {
  it.each(commandPaths().map((path) => [path.join(" "), path]))(
    "scv %s --help: no token left",
    async (_, path) => {
      const help = await helpOf([...path, "--help"]);
      expect(help).toMatch(/^Usage: scv /);
      expect(help).not.toMatch(TOKEN);
    },
  );

  it("agents login lists the sign-ins --import copies, by the table's rows", async () => {
    const help = (await helpOf(["agents", "login", "--help"])).replace(/\s+/g, " ");
    const importing = ADAPTERS.filter((entry) => {
      const login: { kind: string; import?: unknown } = entry.login;
      return login.kind === "import" || login.import !== undefined;
    });
    expect(importing.length).toBeGreaterThan(0);
    for (const entry of importing) expect(help).toContain(`${entry.name}: ~/`);
  });

  it("scv help agents, scv agents --help and scv agents -h name an account of the example agent", async () => {
    for (const argv of [
      ["help", "agents"],
      ["agents", "--help"],
      ["agents", "-h"],
    ]) {
      expect(await helpOf(argv)).toContain(`(an account's own: ${EXAMPLE_AGENTS[0]}@work)`);
    }
  });

  it("scv mcp install -h lists the hosts of the table; scv review -qh its examples", async () => {
    const install = (await helpOf(["mcp", "install", "-h"])).replace(/\s+/g, " ");
    expect(install).toContain(
      shippedHostApps()
        .map(({ entry }) => entry.name)
        .join(", "),
    );
    const review = (await helpOf(["review", "-qh"])).replace(/\s+/g, " ");
    expect(review).toContain(`(${EXAMPLE_AGENTS[0]}, ${EXAMPLE_AGENTS[1]}/high, ${EXAMPLE_AGENTS[0]}@work)`);
  });
});

describe("mayShowHelp", () => {
  it.each([
    [["--help"], true],
    [["delegate", "-h"], true],
    [["review", "-qh"], true],
    [["help", "agents"], true],
    [["agents", "help", "login"], true],
    [["--version"], false],
    [["delegate", "claude", "hi"], false],
    [["delegate", "claude", "--", "--help"], false],
    [["delegate", "--json", "claude", "hi"], false],
  ])("%j: %s", (argv, expected) => {
    expect(mayShowHelp(argv)).toBe(expected);
  });
});
