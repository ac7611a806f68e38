import { describe, expect, it } from "vitest";
import * as s from "../../src/parsers/shape.js";
import { maybeNumber, maybeString } from "../../src/parsers/wire.js";

describe("shape readers", () => {
  const Event = s.object({
    type: s.literal("result"),
    text: maybeString,
    count: maybeNumber,
    flags: s.optional(s.array(s.string())),
    model: s.nullable(s.string()),
  });

  it("keeps only the declared fields, and leaves absent optional ones absent", () => {
    const line = { type: "result", text: "hi", model: null, extra: { big: "x".repeat(10) } };
    expect(s.readAs(Event, line)).toStrictEqual({ type: "result", text: "hi", model: null });
  });

  it("reads a field of the wrong type through maybe as absent, without failing the event", () => {
    expect(s.readAs(Event, { type: "result", text: 42, count: "7", model: "m" })).toStrictEqual({
      type: "result",
      model: "m",
    });
  });

  it("fails the event on a deciding field: the literal, a required field, a bad optional one", () => {
    expect(s.readAs(Event, { type: "assistant", model: null })).toBeNull();
    expect(s.readAs(Event, { type: "result" })).toBeNull();
    expect(s.readAs(Event, { type: "result", model: null, flags: ["a", 1] })).toBeNull();
    expect(s.readAs(Event, { type: "result", model: null, flags: "a" })).toBeNull();
  });

  it("takes only JSON objects for objects and records: not arrays, null or primitives", () => {
    for (const value of [null, [], "result", 1, true, undefined]) {
      expect(s.readAs(Event, value)).toBeNull();
      expect(s.readAs(s.record(s.number()), value)).toBeNull();
    }
  });

  it("does not find a field a line lacks on Object.prototype, and refuses such a field name", () => {
    expect(s.readAs(s.object({ name: maybeString }), {})).toStrictEqual({});
    expect(() => s.object({ constructor: s.unknown() })).toThrow(/member of every object/);
  });

  it("keeps a record's __proto__ key as data", () => {
    const read = s.readAs(s.record(s.number()), JSON.parse('{"__proto__": 1, "a": 2}'));
    expect(read).not.toBeNull();
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect(Object.keys(read ?? {})).toEqual(["__proto__", "a"]);
    expect(s.readAs(s.record(s.number()), { a: 1, b: "2" })).toBeNull();
  });

  it("reads a union as its first fitting option", () => {
    const Content = s.union([s.array(s.object({ type: s.string() })), s.string()]);
    expect(s.readAs(Content, "plain")).toBe("plain");
    expect(s.readAs(Content, [{ type: "text", text: "x" }])).toStrictEqual([{ type: "text" }]);
    expect(s.readAs(Content, 3)).toBeNull();
  });

  it("accepts only finite numbers", () => {
    expect(s.readAs(s.number(), 1.5)).toBe(1.5);
    expect(s.readAs(s.number(), Number.POSITIVE_INFINITY)).toBeNull();
    expect(s.readAs(s.number(), Number.NaN)).toBeNull();
    expect(s.readAs(s.number(), "1")).toBeNull();
  });

  it("returns new arrays and objects, never the line's own", () => {
    const line = { type: "result", model: "m", flags: ["a"] };
    const read = s.readAs(Event, line);
    expect(read).not.toBe(line);
    expect(read?.flags).not.toBe(line.flags);
  });
});
