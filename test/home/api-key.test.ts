// What is refused as an API key, and that the refusal never holds the key.

import { describe, expect, it } from "vitest";
import { ScvError } from "../../src/errors.js";
import { apiKeyProblem, requireValidKey } from "../../src/home/api-key.js";

describe("apiKeyProblem", () => {
  it("accepts printable keys and refuses empty ones and any whitespace or control character", () => {
    expect(apiKeyProblem("sk-ant-api03-abc_DEF.123")).toBeUndefined();
    expect(apiKeyProblem("")).toBe("the key is empty");
    // Beyond printable ASCII a character is refused only for what it is.
    expect(apiKeyProblem("sk-ключ-é")).toBeUndefined();
    for (const bad of [
      "a b",
      "a\tb",
      "a\nb",
      "a\rb",
      "a\u0000b",
      "a\u007fb",
      "a\u00a0b",
      "a\u200bb",
      "a\u2028b",
      "a\u00adb",
      "a\ufeffb",
    ]) {
      expect(apiKeyProblem(bad)).toBe("the key contains whitespace or control characters");
    }
  });

  it("requireValidKey's message never holds the key", () => {
    const key = "CANARY key";
    try {
      requireValidKey(key);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ScvError);
      expect((error as ScvError).exitCode).toBe(2);
      expect((error as ScvError).message).not.toContain("CANARY");
    }
  });
});
