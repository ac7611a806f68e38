// Tool-start events whose summary is made on first read: never made when nothing reads it, made once
// however often it is read, and to every reader (a copy, JSON, an equality check) a plain string.

import { describe, expect, it } from "vitest";
import { toolStartEvent } from "../../src/parsers/tool-tracker.js";

describe("toolStartEvent", () => {
  it("makes a summary given as a function only when it is read, and once", () => {
    let made = 0;
    const event = toolStartEvent("t1", "Bash", () => {
      made += 1;
      return "$ npm test";
    });
    expect(made).toBe(0);
    expect(event.type === "tool-start" && event.summary).toBe("$ npm test");
    expect(event.type === "tool-start" && event.summary).toBe("$ npm test");
    expect(made).toBe(1);
  });

  it("is a plain event to a copy, to JSON and to an equality check", () => {
    const lazy = () => toolStartEvent("t1", "Bash", () => "$ ls");
    const plain = { type: "tool-start", id: "t1", name: "Bash", summary: "$ ls" };
    expect({ ...lazy(), t: 5 }).toEqual({ ...plain, t: 5 });
    expect(JSON.parse(JSON.stringify(lazy()))).toEqual(plain);
    expect(lazy()).toEqual(plain);
    expect(Object.keys(lazy())).toEqual(["type", "id", "name", "summary"]);
    expect(toolStartEvent("t1", "Bash", "$ ls")).toEqual(plain);
  });
});
