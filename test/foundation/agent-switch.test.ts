// The rule `npm run check` runs (scripts/agent-switch.ts): a string equal to an agent's name decides
// nothing outside src/adapters.ts and src/table/. Each form of a switch is planted and must be found;
// a name that decides nothing (a message, a comment) and the table itself must not be.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { agentNames, agentSwitches, switchesIn } from "../../scripts/agent-switch.js";

const SRC = join(import.meta.dirname, "..", "..", "src");
const names = agentNames();

function found(text: string, file = "turn/planted.ts"): string[] {
  return switchesIn(file, text, names).map((hit) => `${hit.line}:${hit.name}`);
}

describe("no switch on an agent's name outside the table", () => {
  it("holds for src/ as it is", () => {
    expect(agentSwitches(SRC)).toEqual([]);
  });

  it("knows every shipped row's name and command", () => {
    for (const name of ["codex", "claude", "claude-ai", "gemini", "cursor-agent", "pi"]) {
      expect(names.has(name)).toBe(true);
    }
  });

  it("finds a comparison, a case, a key, `in` and a list looked up", () => {
    const planted = [
      'if (entry.name === "codex") run();',
      'if ("gemini" !== name) run();',
      'switch (entry.name) { case "claude": break; }',
      "const FLAGS = { qwen: 1, \"claude-ai\": 2, ['opencode']: 3 };",
      "interface PerAgent { copilot: string }",
      'if ("amp" in table) run();',
      'if (["pi", "kimi"].includes(name)) run();',
      'const SLOW = new Set(["cursor-agent"]);',
      "if (name === `grok`) run();",
    ].join("\n");
    expect(found(planted)).toEqual([
      "1:codex",
      "2:gemini",
      "3:claude",
      "4:qwen",
      "4:claude-ai",
      "4:opencode",
      "5:copilot",
      "6:amp",
      "7:pi",
      "7:kimi",
      "8:cursor-agent",
      "9:grok",
    ]);
  });

  it("leaves alone a name that decides nothing", () => {
    const harmless = [
      "// codex writes its own auth.json",
      'const hint = "run: scv agents login codex";',
      'const example = name + "@work";',
      'const list = ["codex", "claude"];',
      'log("claude");',
      "const { cursor } = params;",
    ].join("\n");
    expect(found(harmless)).toEqual([]);
  });

  it("allows only the table to decide by a name, and fails on a file planted beside it", () => {
    const dir = mkdtempSync(join(tmpdir(), "scv-switch-"));
    dirs.push(dir);
    mkdirSync(join(dir, "table"));
    writeFileSync(join(dir, "adapters.ts"), "export const X = { codex: 1 };\n");
    writeFileSync(join(dir, "table", "codex.ts"), 'export const y = (n: string) => n === "codex";\n');
    expect(agentSwitches(dir, names)).toEqual([]);
    writeFileSync(join(dir, "planted.ts"), 'export const slow = (n: string) => n === "copilot";\n');
    expect(agentSwitches(dir, names).map((hit) => `${hit.file}:${hit.line}:${hit.name}`)).toEqual([
      "planted.ts:1:copilot",
    ]);
  });
});

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
