// Bytes that are not UTF-8 kept through scv as text: decoded to lone surrogates, written back as
// the same bytes, counted and replaced for JSON and terminals.

import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decodeKeepingBytes, notTextCount, replyBytes, wellFormed } from "../../src/text-bytes.js";
import { createLineFramer } from "../../src/transport/framing.js";

const bytes = (...values: number[]) => Buffer.from(values);

describe("decodeKeepingBytes", () => {
  it("decodes valid UTF-8 as usual", () => {
    const text = "café — 日本 🎉";
    expect(decodeKeepingBytes(Buffer.from(text))).toBe(text);
  });

  it("keeps each byte that starts no valid sequence, and only those", () => {
    expect(decodeKeepingBytes(Buffer.from("café", "latin1"))).toBe("caf\udce9");
    // Overlong NUL, an encoded surrogate, a byte above F4, a lone continuation, a cut sequence.
    expect(decodeKeepingBytes(bytes(0xc0, 0x80))).toBe("\udcc0\udc80");
    expect(decodeKeepingBytes(bytes(0xed, 0xa0, 0x80))).toBe("\udced\udca0\udc80");
    expect(decodeKeepingBytes(bytes(0xf5, 0x41))).toBe("\udcf5A");
    expect(decodeKeepingBytes(bytes(0x80, 0x41))).toBe("\udc80A");
    expect(decodeKeepingBytes(bytes(0x41, 0xe2, 0x82))).toBe("A\udce2\udc82");
    // A valid character right after a bad byte is kept whole.
    expect(decodeKeepingBytes(Buffer.concat([bytes(0xff), Buffer.from("€")]))).toBe("\udcff€");
  });

  it("writes back exactly the bytes it read, whatever they are", () => {
    for (let round = 0; round < 200; round += 1) {
      const original = randomBytes(1 + (round % 64));
      expect(replyBytes(decodeKeepingBytes(original))).toEqual(original);
    }
  });
});

describe("what each output form does with them", () => {
  it("counts and replaces kept bytes and lone surrogates a JSON escape made, never a pair", () => {
    const text = `caf\udce9 🎉 \ud800x`;
    expect(notTextCount(text)).toBe(2);
    expect(wellFormed(text)).toBe("caf\ufffd 🎉 \ufffdx");
    expect(notTextCount("plain 🎉")).toBe(0);
    // Not a byte scv kept: U+FFFD is the only thing it can be written as.
    expect(replyBytes("\ud800")).toEqual(Buffer.from("\ufffd"));
  });
});

describe("the line framer", () => {
  it("keeps the bytes of a line cut by a chunk boundary, and decodes a character cut by one", () => {
    const lines: string[] = [];
    const framer = createLineFramer({ onLine: (line) => lines.push(line), onOversized: () => {} });
    const stream = Buffer.concat([Buffer.from("caf", "latin1"), bytes(0xe9), Buffer.from(" €\nok\n")]);
    for (const byte of stream) framer.push(bytes(byte));
    framer.end();
    expect(lines).toEqual(["caf\udce9 €", "ok"]);
  });
});
