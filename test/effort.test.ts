import { describe, expect, it } from "vitest";
import { isEffortWord, nearestEffort } from "../src/effort.js";

describe("nearestEffort", () => {
  const levels = ["minimal", "low", "medium", "high", "max"];
  it.each([
    ["hgih", "high"],
    ["hihg", "high"],
    ["hig", "high"],
    ["HIGH", "high"],
    ["mediun", "medium"],
    ["minimla", "minimal"],
    ["lwo", "low"],
  ])("%s → %s", (word, level) => {
    expect(nearestEffort(levels, word)).toBe(level);
  });

  it.each(["mock-model", "gpt-5.5", "claude-sonnet-4-5", "mini", "hg", "bogus"])("%s is none", (word) => {
    expect(nearestEffort(levels, word)).toBeUndefined();
  });

  it("knows every agent's effort words", () => {
    for (const word of ["xhigh", "off", "none", "MAX"]) expect(isEffortWord(word)).toBe(true);
    expect(isEffortWord("mock-model")).toBe(false);
  });
});
