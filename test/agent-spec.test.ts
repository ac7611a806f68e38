import { describe, expect, it } from "vitest";
import { parseAgentSpec } from "../src/agent-spec.js";
import { ScvError } from "../src/errors.js";

describe("agent[:model][/effort]", () => {
  it.each([
    ["codex", { agent: "codex" }],
    ["codex/high", { agent: "codex", effort: "high" }],
    ["codex:gpt-5.5", { agent: "codex", model: "gpt-5.5" }],
    ["codex:gpt-5.5/high", { agent: "codex", model: "gpt-5.5", effort: "high" }],
    // A model with slashes and colons of its own: only a trailing known effort level is the effort.
    ["opencode:anthropic/claude-sonnet-4-5", { agent: "opencode", model: "anthropic/claude-sonnet-4-5" }],
    [
      "opencode:openrouter/anthropic/claude-sonnet-4",
      { agent: "opencode", model: "openrouter/anthropic/claude-sonnet-4" },
    ],
    ["opencode:mock/mock-model/high", { agent: "opencode", model: "mock/mock-model", effort: "high" }],
    ["pi:openai/gpt-5.5/xhigh", { agent: "pi", model: "openai/gpt-5.5", effort: "xhigh" }],
    ["pi:openai/gpt-5.5", { agent: "pi", model: "openai/gpt-5.5" }],
    ["pi:sonnet:high", { agent: "pi", model: "sonnet:high" }],
    [
      "qwen:Qwen/Qwen3-Coder-480B-A35B-Instruct",
      { agent: "qwen", model: "Qwen/Qwen3-Coder-480B-A35B-Instruct" },
    ],
    ["claude-ai:opus/max", { agent: "claude-ai", model: "opus", effort: "max" }],
    // An unknown agent and one that takes no model are refused later, for that.
    ["nosuch:a/hgih", { agent: "nosuch", model: "a/hgih" }],
    ["amp:a/hgih", { agent: "amp", model: "a/hgih" }],
  ])("%s", (text, spec) => {
    expect(parseAgentSpec(text)).toEqual(spec);
  });

  it.each(["Codex", "codex+x", "codex:", "codex/", ":gpt"])("refuses %s", (text) => {
    expect(() => parseAgentSpec(text)).toThrow(ScvError);
  });
});

// The issue's cases: a misspelt effort became part of the model name and failed inside the CLI.
describe("a last /part that is no effort level of the agent", () => {
  it.each([
    [
      "opencode:mock/mock-model/hgih",
      "'opencode:mock/mock-model/hgih': did you mean opencode:mock/mock-model/high? efforts for opencode: minimal, low, medium, high, max",
    ],
    [
      "codex:gpt-5.5/meduim",
      "'codex:gpt-5.5/meduim': did you mean codex:gpt-5.5/medium? efforts for codex: minimal, low, medium, high, xhigh",
    ],
    [
      "pi:openai/gpt-5.5/High",
      "'pi:openai/gpt-5.5/High': did you mean pi:openai/gpt-5.5/high? efforts for pi: off, minimal, low, medium, high, xhigh",
    ],
    [
      "claude:opus/bogus",
      "'claude:opus/bogus': 'bogus' is not an effort level of claude — efforts for claude: low, medium, high, xhigh, max (a model id with that '/' goes in -m)",
    ],
    // Another agent's level, where the model ids may have a `/`.
    [
      "opencode:anthropic/claude-sonnet-4-5/xhigh",
      "'opencode:anthropic/claude-sonnet-4-5/xhigh': did you mean opencode:anthropic/claude-sonnet-4-5/high? efforts for opencode: minimal, low, medium, high, max",
    ],
    [
      "opencode:anthropic/claude-sonnet-4-5/none",
      "'opencode:anthropic/claude-sonnet-4-5/none': 'none' is not an effort level of opencode — efforts for opencode: minimal, low, medium, high, max (a model id with that '/' goes in -m)",
    ],
    [
      "gemini:gemini-2.5-pro/high",
      "'gemini:gemini-2.5-pro/high': Gemini CLI takes no effort level — write gemini:gemini-2.5-pro (a model id with that '/' goes in -m)",
    ],
    [
      "qwen:qwen3-coder-plus/high",
      "'qwen:qwen3-coder-plus/high': Qwen Code takes no effort level — write qwen:qwen3-coder-plus (a model id with that '/' goes in -m)",
    ],
  ])("%s is refused (exit 2) before anything runs", (text, message) => {
    let error: unknown;
    try {
      parseAgentSpec(text);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ScvError);
    expect((error as ScvError).exitCode).toBe(2);
    expect((error as ScvError).message).toBe(message);
  });
});

describe("agent[:model][/effort][@account[,account…]]", () => {
  it.each([
    ["codex@work", { agent: "codex", accounts: ["work"] }],
    ["claude@personal", { agent: "claude", accounts: ["personal"] }],
    ["codex:gpt-5.5/high@work", { agent: "codex", model: "gpt-5.5", effort: "high", accounts: ["work"] }],
    ["codex/high@work,personal", { agent: "codex", effort: "high", accounts: ["work", "personal"] }],
    ["gemini:gemini-2.5-pro", { agent: "gemini", model: "gemini-2.5-pro" }],
    ["codex@default,team-2", { agent: "codex", accounts: ["default", "team-2"] }],
    [
      "opencode:openrouter/anthropic/claude-sonnet-4/high@a,b,c",
      {
        agent: "opencode",
        model: "openrouter/anthropic/claude-sonnet-4",
        effort: "high",
        accounts: ["a", "b", "c"],
      },
    ],
    // The last '@' starts the accounts: a model with an '@' of its own is fine before them.
    ["claude:vertex@x@work", { agent: "claude", model: "vertex@x", accounts: ["work"] }],
  ])("%s", (text, spec) => {
    expect(parseAgentSpec(text)).toEqual(spec);
  });

  it.each([
    [
      "codex@",
      "'codex@' names no account after '@' — write agent@account[,account…], such as codex@work,personal",
    ],
    [
      "codex@,work",
      "'codex@,work' has an empty account in its list — write agent@account[,account…], such as codex@work,personal",
    ],
    [
      "codex@work,",
      "'codex@work,' has an empty account in its list — write agent@account[,account…], such as codex@work,personal",
    ],
    [
      "codex@work,,b",
      "'codex@work,,b' has an empty account in its list — write agent@account[,account…], such as codex@work,personal",
    ],
    ["codex@work,work", "'codex@work,work' names account 'work' twice — name it once"],
    [
      "codex@Work",
      "'codex@Work': 'Work' is not an account name — use a-z, 0-9 and '-', up to 32, starting with a letter (a model id with '@' goes in -m)",
    ],
    [
      "claude:claude-sonnet-4@20250514",
      "'claude:claude-sonnet-4@20250514': '20250514' is not an account name — use a-z, 0-9 and '-', up to 32, starting with a letter (a model id with '@' goes in -m)",
    ],
    ["codex@a/b", expect.stringContaining("'a/b' is not an account name")],
    ["codex@../x", expect.stringContaining("'../x' is not an account name")],
    [`codex@${"a".repeat(33)}`, expect.stringContaining("is not an account name")],
    [
      "@work",
      "'@work' is not an agent — write agent[:model][/effort][@account,…], such as codex:gpt-5.5/high@work",
    ],
    ["codex:@work", "'codex:@work' names an empty model or effort — write agent[:model][/effort]"],
    ["codex:gpt-5.5/meduim@work", expect.stringContaining("did you mean codex:gpt-5.5/medium?")],
  ])("refuses %s with one line", (text, message) => {
    let thrown: unknown;
    try {
      parseAgentSpec(text);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ScvError);
    expect((thrown as ScvError).exitCode).toBe(2);
    expect((thrown as ScvError).message).toEqual(message);
    expect((thrown as ScvError).message).not.toContain("\n");
  });

  // Every target built from the grammar's parts parses back to those parts.
  it("parses back every combination of its parts", () => {
    const models = [undefined, "gpt-5.5", "o3"];
    const efforts = [undefined, "high", "low"];
    const ladders = [undefined, ["work"], ["work", "personal"], ["a-1", "b", "c"]];
    for (const model of models)
      for (const effort of efforts)
        for (const accounts of ladders) {
          const text = `codex${model === undefined ? "" : `:${model}`}${effort === undefined ? "" : `/${effort}`}${accounts === undefined ? "" : `@${accounts.join(",")}`}`;
          expect(parseAgentSpec(text), text).toEqual({
            agent: "codex",
            ...(model === undefined ? {} : { model }),
            ...(effort === undefined ? {} : { effort }),
            ...(accounts === undefined ? {} : { accounts }),
          });
        }
  });
});
