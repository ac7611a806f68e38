// Best of N: `--n` and a target named twice, as one pure expansion.

import { describe, expect, it } from "vitest";
import { EXIT, ScvError } from "../../src/errors.js";
import { attemptLabel, attemptsOption, expandAttempts, MAX_ATTEMPTS } from "../../src/turn/attempts.js";

const same = (target: string) => target;

describe("attemptsOption", () => {
  it("takes a whole number from 1 to the maximum, 1 when absent", () => {
    expect(attemptsOption(undefined)).toBe(1);
    expect(attemptsOption("3")).toBe(3);
    expect(attemptsOption(String(MAX_ATTEMPTS))).toBe(MAX_ATTEMPTS);
  });

  it.each(["0", "-1", "2.5", "x", "", "1e1", String(MAX_ATTEMPTS + 1), "0x3"])(
    "refuses %j in one line, exit 2",
    (text) => {
      let error: unknown;
      try {
        attemptsOption(text);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ScvError);
      expect((error as ScvError).exitCode).toBe(EXIT.usage);
      expect((error as ScvError).message).toBe(
        `--n '${text}' is not a count of attempts — give a whole number from 1 to ${MAX_ATTEMPTS}`,
      );
    },
  );
});

describe("expandAttempts", () => {
  it("runs each target n times, in the order given, numbered per target", () => {
    expect(expandAttempts(["codex", "claude"], 3, same)).toEqual([
      { target: "codex", attempt: 1, of: 3 },
      { target: "codex", attempt: 2, of: 3 },
      { target: "codex", attempt: 3, of: 3 },
      { target: "claude", attempt: 1, of: 3 },
      { target: "claude", attempt: 2, of: 3 },
      { target: "claude", attempt: 3, of: 3 },
    ]);
  });

  it("counts a target named twice as more attempts of it, with --n too", () => {
    expect(expandAttempts(["codex", "codex", "claude"], 1, same)).toEqual([
      { target: "codex", attempt: 1, of: 2 },
      { target: "codex", attempt: 2, of: 2 },
      { target: "claude", attempt: 1, of: 1 },
    ]);
    const twice = expandAttempts(["codex", "claude", "codex"], 2, same);
    expect(twice.map((each) => `${each.target} ${each.attempt}/${each.of}`)).toEqual([
      "codex 1/4",
      "codex 2/4",
      "claude 1/2",
      "claude 2/2",
      "codex 3/4",
      "codex 4/4",
    ]);
  });

  it("tells targets apart by the key: another model is another target", () => {
    const targets = [{ agent: "codex" }, { agent: "codex", model: "o3" }, { agent: "codex" }];
    const key = (t: { agent: string; model?: string }) => `${t.agent}:${t.model ?? ""}`;
    expect(expandAttempts(targets, 1, key).map((each) => [each.attempt, each.of])).toEqual([
      [1, 2],
      [1, 1],
      [2, 2],
    ]);
  });

  it("labels an attempt with its number only when its target has several", () => {
    expect(attemptLabel("codex", { attempt: 1, of: 1 })).toBe("codex");
    expect(attemptLabel("codex", { attempt: 2, of: 3 })).toBe("codex #2");
  });
});
