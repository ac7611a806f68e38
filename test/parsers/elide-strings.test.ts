// The byte-level scanner that cuts long JSON strings to a prefix before a line is decoded: it must
// find each string's real end through escapes, cut only on character and escape boundaries, follow
// the nesting to tell where a string sits, and hand back anything it cannot follow untouched.

import { describe, expect, it } from "vitest";
import { StringElider } from "../../src/parsers/elide-strings.js";
import type { ElisionLimits, ElisionPolicy, StringPlace } from "../../src/parsers/elision.js";

/** Elides every string under a key named `x`, at any depth. */
const UNDER_X: ElisionPolicy = ({ path }) => path.includes("x");

const SMALL: Partial<ElisionLimits> = { minLineBytes: 0, minStringBytes: 8, keepBytes: 4 };

function elide(json: string, policy = UNDER_X, limits = SMALL): string {
  return new StringElider(policy, limits).elide(Buffer.from(json, "utf8")).toString("utf8");
}

/** The places the policy was asked about, in order. */
function placesSeen(json: string): StringPlace[] {
  const seen: StringPlace[] = [];
  elide(json, (place) => {
    seen.push(place);
    return false;
  });
  return seen;
}

describe("StringElider", () => {
  it("cuts an elidable string to its prefix and leaves every other byte as it was", () => {
    const line = '{"a":1,"x":"0123456789abcdef","b":[true,null],"c":"0123456789abcdef"}';
    expect(elide(line)).toBe('{"a":1,"x":"0123","b":[true,null],"c":"0123456789abcdef"}');
  });

  it("returns the very same buffer when nothing is cut", () => {
    const bytes = Buffer.from('{"a":"0123456789abcdef","x":"short"}');
    expect(new StringElider(UNDER_X, SMALL).elide(bytes)).toBe(bytes);
  });

  it("leaves lines shorter than minLineBytes to the framer, and strings shorter than minStringBytes whole", () => {
    const elider = new StringElider(UNDER_X, { minLineBytes: 100, minStringBytes: 8, keepBytes: 4 });
    expect(elider.wants(99)).toBe(false);
    expect(elider.wants(100)).toBe(true);
    expect(elide('{"x":"1234567"}')).toBe('{"x":"1234567"}');
    expect(elide('{"x":"12345678"}')).toBe('{"x":"1234"}');
  });

  it('finds the end of a string through \\" and \\\\ escapes', () => {
    const value = 'say \\"hi\\" \\\\ then "quote" \\\\"';
    const line = JSON.stringify({ x: value, after: 'a "b" c', x2: { x: `${value}!` } });
    const out = JSON.parse(elide(line, UNDER_X, { minLineBytes: 0, minStringBytes: 8, keepBytes: 12 }));
    expect(out.after).toBe('a "b" c');
    expect(value.startsWith(out.x)).toBe(true);
    expect(`${value}!`.startsWith(out.x2.x)).toBe(true);
  });

  it("ends a string at a quote after an even run of backslashes", () => {
    // The value ends in a backslash: its JSON is `…\\\\"`, and that quote closes it.
    const line = JSON.stringify({ x: "abcdefghij\\", y: "0123456789abcdef" });
    expect(JSON.parse(elide(line))).toEqual({ x: "abcd", y: "0123456789abcdef" });
  });

  it("never cuts an escape, a surrogate pair or a multi-byte character in half", () => {
    // Raw JSON: \u00e9 and a \ud83c\udf89 pair as escapes, then é (2 bytes), → (3), 🎉 (4), \n, \\.
    const raw = String.raw`"\u00e9\ud83c\udf89é→🎉\n\\\"abc"`;
    const whole = JSON.parse(raw) as string;
    const rawBytes = Buffer.byteLength(raw) - 2;
    for (let keepBytes = 0; keepBytes <= rawBytes; keepBytes += 1) {
      const out = elide(`{"x":${raw}}`, UNDER_X, { minLineBytes: 0, minStringBytes: 1, keepBytes });
      const kept = (JSON.parse(out) as { x: string }).x;
      expect(whole.startsWith(kept), `keepBytes ${keepBytes}`).toBe(true);
      expect(Buffer.byteLength(out) - Buffer.byteLength('{"x":""}')).toBeLessThanOrEqual(keepBytes);
      // No lone high surrogate and no U+FFFD: the prefix ends between whole characters.
      expect(kept).not.toMatch(/[\ud800-\udbff]$|\ufffd/);
    }
  });

  it("keeps as much of the prefix as fits: a cut falls back only to the last whole character", () => {
    const line = `{"x":"${"é".repeat(10)}"}`; // 20 bytes of 2-byte characters
    expect(elide(line, UNDER_X, { minLineBytes: 0, minStringBytes: 1, keepBytes: 5 })).toBe('{"x":"éé"}');
    expect(elide(line, UNDER_X, { minLineBytes: 0, minStringBytes: 1, keepBytes: 6 })).toBe('{"x":"ééé"}');
  });

  it("tells the policy each string's path through objects and arrays", () => {
    const line = JSON.stringify({
      type: "user",
      message: { content: [{ type: "tool_result", content: "0123456789" }, "0123456789"] },
      tail: "0123456789",
    });
    expect(placesSeen(line)).toEqual([
      {
        path: ["message", "content", "[]", "content"],
        types: ["user", undefined, undefined, "tool_result"],
      },
      { path: ["message", "content", "[]"], types: ["user", undefined, undefined] },
      { path: ["tail"], types: ["user"] },
    ]);
  });

  it("gives an object's type only when it came before the string", () => {
    const before = placesSeen('{"item":{"type":"reasoning","text":"0123456789"}}');
    const after = placesSeen('{"item":{"text":"0123456789","type":"reasoning"}}');
    expect(before.map((place) => place.types[1])).toEqual(["reasoning"]);
    expect(after.map((place) => place.types[1])).toEqual([undefined]);
  });

  it("does not count a type value or a key as a string to cut", () => {
    const long = "k".repeat(20);
    expect(placesSeen(`{"type":"${long}","${long}":1}`)).toEqual([]);
  });

  it("hands back whole a line whose type key repeats: JSON.parse keeps the last one", () => {
    const line = '{"type":"reasoning","x":"0123456789abcdef","type":"agent_message"}';
    expect(elide(line)).toBe(line);
  });

  it("hands back whole a line it cannot follow: an unterminated string, nesting past 64", () => {
    const truncated = '{"x":"0123456789abcdef","y":"012345';
    expect(elide(truncated)).toBe(truncated);
    const nested = (depth: number, text: string) =>
      `{"x":${"[".repeat(depth - 1)}"${text}"${"]".repeat(depth - 1)}}`;
    expect(elide(nested(65, "0123456789abcdef"))).toBe(nested(65, "0123456789abcdef"));
    expect(elide(nested(64, "0123456789abcdef"))).toBe(nested(64, "0123"));
  });

  it("leaves lines that are not JSON as unreadable as they were", () => {
    for (const garbage of [
      'plain text with "quotes" and "x": "0123456789abcdef"',
      '{"x":"0123456789abcdef"}{"x":"0123456789abcdef"}',
      '\u001b[0m{"x":"0123456789abcdef"',
      '{"x":"0123456789abcdef" "y"}',
    ]) {
      const out = elide(garbage);
      expect(() => JSON.parse(out), garbage).toThrow();
    }
  });

  it("reuses its buffer: each result stays valid until the next call", () => {
    const elider = new StringElider(UNDER_X, SMALL);
    const first = elider.elide(Buffer.from('{"x":"0123456789abcdef"}')).toString("utf8");
    const second = elider.elide(Buffer.from('{"x":"abcdefghijklmnop","y":2}')).toString("utf8");
    expect([first, second]).toEqual(['{"x":"0123"}', '{"x":"abcd","y":2}']);
  });
});

/** mulberry32, for a reproducible random walk over JSON shapes. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  "a",
  "Z",
  " ",
  '"',
  "\\",
  "\n",
  "\t",
  "\u0001",
  "é",
  "→",
  "🎉",
  "日本",
  "\u2028",
  "\ud83c", // a lone surrogate: JSON.stringify writes it as an escape
  "{",
  "]",
  ":",
  ",",
];
const KEYS = ["x", "y", "type", "text", "a b", 'q"k', "é"];

function randomValue(random: () => number, depth: number): unknown {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const roll = random();
  if (depth > 4 || roll < 0.45) {
    if (roll < 0.05) return 42;
    if (roll < 0.08) return null;
    return Array.from({ length: Math.floor(random() * 40) }, () => pick(PIECES)).join("");
  }
  if (roll < 0.7)
    return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth + 1));
  return Object.fromEntries(
    Array.from({ length: Math.floor(random() * 5) }, () => [pick(KEYS), randomValue(random, depth + 1)]),
  );
}

/** `elided` is `original` with strings under a key `x` possibly cut to a prefix, and nothing else changed. */
function expectPrefixesUnderX(original: unknown, elided: unknown, underX: boolean): void {
  if (typeof original === "string" && underX) {
    expect(typeof elided).toBe("string");
    expect(original.startsWith(elided as string)).toBe(true);
    return;
  }
  if (typeof original !== "object" || original === null) {
    expect(elided).toEqual(original);
    return;
  }
  expect(Object.keys(elided as object)).toEqual(Object.keys(original));
  for (const [key, value] of Object.entries(original)) {
    const isArray = Array.isArray(original);
    expectPrefixesUnderX(
      value,
      (elided as Record<string, unknown>)[key],
      underX || (!isArray && key === "x"),
    );
  }
}

describe("StringElider on random JSON", () => {
  it("always yields valid JSON that differs only by prefixes of the elidable strings", () => {
    const random = seeded(7);
    let cut = 0;
    for (let round = 0; round < 800; round += 1) {
      const value = { x: randomValue(random, 0), y: randomValue(random, 0), z: [randomValue(random, 1)] };
      const line = JSON.stringify(value);
      const limits = { minLineBytes: 0, minStringBytes: 1 + (round % 9), keepBytes: round % 7 };
      const out = elide(line, UNDER_X, limits);
      if (out !== line) cut += 1;
      expectPrefixesUnderX(value, JSON.parse(out), false);
    }
    // The walk must have exercised cutting, not only lines left alone.
    expect(cut).toBeGreaterThan(200);
  });
});
