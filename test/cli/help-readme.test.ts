// scv's command list and commander's help say the same thing: every flag the list shows for a
// command is one that command takes, and every flag a command takes is in the list. The list is read
// as a user reads it, from docs/commands.md (its first code block); help from the program scv runs
// (buildProgram). The README's command table has a row for every command scv has, and no other.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram } from "../../src/cli/program.js";
import { memoryIo } from "../helpers/io.js";

const ROOT = join(import.meta.dirname, "..", "..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");
const COMMANDS_DOC = readFileSync(join(ROOT, "docs", "commands.md"), "utf8");

/** The lines of docs/commands.md's first code block: every command with its flags. */
function commandList(): string[] {
  const block = /```\n([\s\S]*?)\n```/.exec(COMMANDS_DOC)?.[1];
  if (block === undefined) throw new Error("docs/commands.md: no code block");
  return block.split("\n");
}

/** The command paths a synopsis names (`agents [list] [--json]` names `agents` and `agents list`):
 * its leading words, `[word]` optional, `x|y` each. */
function synopsisPaths(synopsis: string): string[] {
  const tokens = synopsis.split(/\s+/);
  const paths = [[tokens[0] ?? ""]];
  for (const token of tokens.slice(1)) {
    const word = /^\[?([a-z]+(?:\|[a-z]+)*)\]?$/.exec(token)?.[1];
    if (word === undefined) break;
    const optional = token.startsWith("[");
    const next = paths.flatMap((path) => word.split("|").map((name) => [...path, name]));
    if (optional) paths.push(...next);
    else paths.splice(0, paths.length, ...next);
  }
  return paths.map((path) => path.join(" "));
}

/** The commands of the README's table, one row each: its first cell, `scv …` in backticks. */
function readmeTableCommands(): string[] {
  const section = README.slice(
    README.indexOf("\n## Commands\n"),
    README.indexOf("\n## ", README.indexOf("\n## Commands\n") + 1),
  );
  return [...section.matchAll(/^\| `scv ([^`]*)` \|/gm)].map((match) =>
    (match[1] ?? "").replaceAll("\\|", "|"),
  );
}

const LONG_FLAG = /(?<![\w-])--[a-z][a-z-]*/g;

/** Each command path docs/commands.md's list names (`agents check`), with the long flags its lines show. A line
 * `scv a [b] …` names `a` and `a b`; `x|y` names both; `| show …` starts another command of the same
 * parent; indented lines (delegate's options) belong to the command above them. */
function listedFlags(): Map<string, Set<string>> {
  const commands = new Map<string, Set<string>>();
  let current: string[] = [];
  for (const line of commandList()) {
    if (line.startsWith("scv ")) {
      current = [];
      const [first = "", ...alternatives] = line.slice(4).split(/ \| (?=[a-z])/);
      const parent = first.split(/\s+/)[0] ?? "";
      for (const part of [first, ...alternatives.map((rest) => `${parent} ${rest}`)]) {
        // The synopsis ends where the description begins: at two spaces or more.
        const paths = synopsisPaths(part.split(/\s{2,}/)[0] ?? "");
        const flags = new Set(part.match(LONG_FLAG) ?? []);
        for (const key of paths) {
          commands.set(key, new Set([...(commands.get(key) ?? []), ...flags]));
          current.push(key);
        }
      }
    } else if (line.startsWith(" ") && current.length > 0) {
      for (const key of current) for (const flag of line.match(LONG_FLAG) ?? []) commands.get(key)?.add(flag);
    }
  }
  return commands;
}

/** Every visible command of the program, by path, with the long flags it takes (help and version
 * aside). */
function programFlags(): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  const walk = (command: Command, path: string[]) => {
    for (const sub of command.commands) {
      if ((sub as unknown as { _hidden?: boolean })._hidden) continue;
      const subPath = [...path, sub.name()];
      const flags = sub.options
        .map((option) => option.long)
        .filter((flag): flag is string => flag !== undefined && flag !== "--help" && flag !== "--version");
      found.set(subPath.join(" "), new Set(flags));
      walk(sub, subPath);
    }
  };
  walk(buildProgram(memoryIo()), []);
  return found;
}

describe("docs/commands.md's command list", () => {
  const listed = listedFlags();
  const program = programFlags();

  it("names every command scv has, and no other", () => {
    expect([...listed.keys()].sort()).toEqual([...program.keys()].sort());
  });

  it.each([...program.keys()])("scv %s: the same flags in docs/commands.md as in its help", (path) => {
    expect([...(listed.get(path) ?? [])].sort(), `docs/commands.md's flags for scv ${path}`).toEqual(
      [...(program.get(path) ?? [])].sort(),
    );
  });
});

describe("the README's command table", () => {
  it("has a row for every command scv has, and no other", () => {
    const rows = readmeTableCommands().flatMap(synopsisPaths);
    expect([...new Set(rows)].sort()).toEqual([...programFlags().keys()].sort());
  });
});

describe("help texts", () => {
  function help(...path: string[]): string {
    const io = memoryIo();
    const program = buildProgram(io);
    let command: Command = program;
    for (const name of path) {
      const sub = command.commands.find((each) => each.name() === name);
      if (sub === undefined) throw new Error(`no command ${path.join(" ")}`);
      command = sub;
    }
    return command.helpInformation();
  }

  it.each([["status"], ["login"], ["logout"], ["check"]])(
    "scv agents %s takes an account: its usage shows [@account]",
    (name) => {
      expect(help("agents", name)).toMatch(
        new RegExp(`^Usage: scv agents ${name} .*agent\\[@account\\]`, "m"),
      );
    },
  );

  it("scv ps and scv kill say they reach session hosts too", () => {
    expect(help("ps")).toContain("session hosts");
    expect(help("kill")).toContain("session host");
  });
});
