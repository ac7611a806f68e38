import { describe, expect, it } from "vitest";
import { parseAgentSpec } from "../../src/commands/delegate.js";
import { ScvError } from "../../src/errors.js";

describe("agent[:model][/effort]", () => {
  it.each([
    ["codex", { agent: "codex" }],
    ["codex/high", { agent: "codex", effort: "high" }],
    ["codex:gpt-5.5", { agent: "codex", model: "gpt-5.5" }],
    ["codex:gpt-5.5/high", { agent: "codex", model: "gpt-5.5", effort: "high" }],
    // A model with slashes and colons of its own: only a trailing known effort level is the effort.
    ["opencode:anthropic/claude-sonnet-4-5", { agent: "opencode", model: "anthropic/claude-sonnet-4-5" }],
    ["pi:openai/gpt-5.5/xhigh", { agent: "pi", model: "openai/gpt-5.5", effort: "xhigh" }],
    ["pi:sonnet:high", { agent: "pi", model: "sonnet:high" }],
    ["claude-ai:opus/max", { agent: "claude-ai", model: "opus", effort: "max" }],
  ])("%s", (text, spec) => {
    expect(parseAgentSpec(text)).toEqual(spec);
  });

  it.each(["Codex", "codex+x", "codex:", "codex/", ":gpt"])("refuses %s", (text) => {
    expect(() => parseAgentSpec(text)).toThrow(ScvError);
  });
});
