// Nothing outside the table names an agent: code, strings or comments. An agent's facts live in its
// row (src/table/<agent>.ts), the meaning of each field in the descriptor's schema (src/descriptor/),
// and the readers of each CLI's own output formats in src/parsers/; every other module reads rows, so
// a new agent is a new row. A hit here is agent knowledge outside the table: move it into the row (a
// field, or a strategy named for what it does), or, where the name is not the agent's at all, add
// it below with why.

import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ADAPTERS, type AdapterDescriptor } from "../../src/adapters.js";

const SRC = join(import.meta.dirname, "..", "..", "src");

/** The table itself, and the readers of the CLIs' wire formats: a format is named after the CLI that
 * defined it (`codex-jsonl`), its reader documents where it comes from, and a row picks it by name
 * (`output.kind`), so several agents may share one. */
const THE_TABLE = [/^adapters\.ts$/, /^table\//, /^descriptor\//, /^parsers\//, /^acp\/events\//];

/** Names that appear outside the table but are not the agent's, each with why. */
const ALLOWED: readonly { file: string; word: string; why: string }[] = [
  {
    file: "review/family.ts",
    word: "*",
    why: "model families (claude, gemini, qwen, grok, deepseek, kimi) read from a model's id: the models' names, which some agents share, not the agents",
  },
  { file: "cli/terminal-text.ts", word: "cursor", why: "the terminal's cursor" },
  { file: "cli/live-screen.ts", word: "cursor", why: "the terminal's cursor" },
  { file: "mcp/task-methods.ts", word: "cursor", why: "the MCP protocol's pagination cursor" },
  {
    file: "mcp/shown-size.ts",
    word: "*",
    why: "what pinned versions of two MCP hosts were measured to show a model: the evidence for scv's own one limit, which no code applies per host",
  },
];

/** Every name of an agent: the brief's list, and each shipped row's name and command (and their
 * first part before a `-`), so that a new row is covered by this test as soon as it is added. */
function agentWords(): string[] {
  const words = new Set([
    "claude",
    "codex",
    "gemini",
    "qwen",
    "opencode",
    "copilot",
    "cursor",
    "amp",
    "pi",
    "grok",
    "kimi",
    "dsh",
    "deepseek",
  ]);
  for (const entry of ADAPTERS as readonly AdapterDescriptor[]) {
    for (const name of [entry.name, entry.command]) {
      words.add(name.toLowerCase());
      words.add((name.split("-")[0] ?? name).toLowerCase());
    }
  }
  return [...words];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((item) => {
    const path = join(dir, item.name);
    if (item.isDirectory()) return sourceFiles(path);
    return item.name.endsWith(".ts") ? [path] : [];
  });
}

/** `file:line: word — the line` for each name of an agent outside the table. */
function namesOutsideTheTable(): string[] {
  const words = agentWords();
  const pattern = new RegExp(`(?<![A-Za-z0-9])(${words.join("|")})(?![A-Za-z0-9])`, "gi");
  const hits: string[] = [];
  for (const path of sourceFiles(SRC)) {
    const file = relative(SRC, path);
    if (THE_TABLE.some((rule) => rule.test(file))) continue;
    const lines = readFileSync(path, "utf8").split("\n");
    lines.forEach((line, index) => {
      for (const match of line.matchAll(pattern)) {
        const word = (match[1] ?? "").toLowerCase();
        if (
          ALLOWED.some((allowed) => allowed.file === file && (allowed.word === "*" || allowed.word === word))
        )
          continue;
        hits.push(`src/${file}:${index + 1}: ${word} — ${line.trim()}`);
      }
    });
  }
  return hits;
}

describe("agent names", () => {
  it("appear nowhere in src/ outside the table and the format readers", () => {
    expect(namesOutsideTheTable()).toEqual([]);
  });

  it("are looked for under every name a row has", () => {
    const words = agentWords();
    for (const entry of ADAPTERS as readonly AdapterDescriptor[]) expect(words).toContain(entry.name);
    expect(words).toContain("cursor-agent");
  });
});
