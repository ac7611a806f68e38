// Reviewers by model family (src/review/family.ts): the family from the row or the model's id, and
// `--reviewers auto`'s choice of up to two installed, signed-in agents of other families.

import { describe, expect, it } from "vitest";
import { ADAPTERS, type AdapterDescriptor } from "../../src/adapters.js";
import { chooseReviewers, modelFamily, type ReviewerCandidate } from "../../src/review/family.js";

function row(name: string): AdapterDescriptor {
  const found = (ADAPTERS as readonly AdapterDescriptor[]).find((entry) => entry.name === name);
  if (found === undefined) throw new Error(name);
  return found;
}

function candidate(
  target: string,
  family: string | undefined,
  extra: Partial<ReviewerCandidate> = {},
): ReviewerCandidate {
  return { target, family, installed: true, signedIn: "yes", ...extra };
}

describe("modelFamily", () => {
  it("is the row's where the CLI runs one family's models, whatever the model", () => {
    expect(modelFamily(row("claude").family)).toBe("claude");
    expect(modelFamily(row("claude-ai").family, "opus")).toBe("claude");
    expect(modelFamily(row("codex").family, "gpt-5.5")).toBe("gpt");
    expect(modelFamily(row("gemini").family)).toBe("gemini");
    expect(modelFamily(row("qwen").family)).toBe("qwen");
  });

  it("is the model's where the user picks among makers, and unknown without one", () => {
    for (const name of ["pi", "opencode", "copilot", "cursor", "amp"]) expect(row(name).family).toBeNull();
    expect(modelFamily(row("opencode").family, "anthropic/claude-sonnet-4-5")).toBe("claude");
    expect(modelFamily(row("copilot").family, "gpt-5")).toBe("gpt");
    expect(modelFamily(row("copilot").family, "claude-sonnet-4.5")).toBe("claude");
    expect(modelFamily(row("pi").family, "openai/o4-mini")).toBe("gpt");
    expect(modelFamily(row("pi").family, "google/gemini-2.5-pro")).toBe("gemini");
    expect(modelFamily(row("opencode").family, "openrouter/qwen/qwen3-coder")).toBe("qwen");
    expect(modelFamily(row("pi").family, "deepseek/deepseek-chat")).toBe("deepseek");
    expect(modelFamily(row("pi").family)).toBeUndefined();
    expect(modelFamily(row("pi").family, "my-local-model")).toBeUndefined();
  });
});

describe("chooseReviewers", () => {
  it("chooses up to two of families other than the author's and each other's, signed-in ones first", () => {
    const choice = chooseReviewers({
      authorFamily: "claude",
      author: "claude",
      candidates: [
        candidate("claude", "claude"),
        candidate("claude-ai", "claude"),
        candidate("gemini", "gemini", { signedIn: "maybe" }),
        candidate("codex", "gpt"),
        candidate("copilot", "gpt"),
        candidate("qwen", "qwen", { signedIn: "maybe" }),
      ],
    });
    expect(choice.reviewers.map((each) => each.target)).toEqual(["codex", "gemini"]);
    expect(choice.passedOver).toEqual([
      { target: "claude", reason: "the author" },
      { target: "claude-ai", reason: "same family as the author" },
      { target: "copilot", reason: "family already chosen" },
      { target: "qwen", reason: "enough reviewers" },
    ]);
  });

  it("passes over what is not installed, signed out, or of no known family, and says so", () => {
    const choice = chooseReviewers({
      authorFamily: "gpt",
      candidates: [
        candidate("claude", "claude", { installed: false }),
        candidate("gemini", "gemini", { signedIn: "no" }),
        candidate("pi", undefined),
        candidate("qwen", "qwen", { signedIn: "maybe" }),
      ],
    });
    expect(choice.reviewers.map((each) => each.target)).toEqual(["qwen"]);
    expect(choice.passedOver).toEqual([
      { target: "claude", reason: "not installed" },
      { target: "gemini", reason: "signed out" },
      { target: "pi", reason: "family unknown" },
    ]);
  });

  it("excludes no family when the author's is unknown, and may find none", () => {
    const candidates = [
      candidate("claude", "claude"),
      candidate("codex", "gpt"),
      candidate("gemini", "gemini"),
    ];
    expect(
      chooseReviewers({ authorFamily: undefined, candidates }).reviewers.map((each) => each.target),
    ).toEqual(["claude", "codex"]);
    expect(
      chooseReviewers({ authorFamily: "claude", candidates, max: 1 }).reviewers.map((each) => each.target),
    ).toEqual(["codex"]);
    expect(
      chooseReviewers({ authorFamily: "claude", candidates: [candidate("claude-ai", "claude")] }).reviewers,
    ).toEqual([]);
  });
});
