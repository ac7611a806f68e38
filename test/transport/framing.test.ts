import { describe, expect, it } from "vitest";
import { everyLine, lineHead, linesOfTypes } from "../../src/parsers/reply-lines.js";
import { createLineFramer } from "../../src/transport/framing.js";

interface Framed {
  lines: string[];
  oversized: number;
}

function frame(chunks: readonly Buffer[], maxLineBytes?: number): Framed {
  const result: Framed = { lines: [], oversized: 0 };
  const framer = createLineFramer({
    maxLineBytes,
    onLine: (line) => result.lines.push(line),
    onOversized: () => {
      result.oversized += 1;
    },
  });
  for (const chunk of chunks) framer.push(chunk);
  framer.end();
  return result;
}

function bytewise(text: string): Buffer[] {
  const bytes = Buffer.from(text, "utf8");
  return Array.from(bytes, (byte) => Buffer.from([byte]));
}

describe("createLineFramer", () => {
  it("splits on LF and keeps the last line without a newline", () => {
    expect(frame([Buffer.from("one\ntwo\nthree")]).lines).toEqual(["one", "two", "three"]);
  });

  it("does not invent an empty line after a final newline", () => {
    expect(frame([Buffer.from("one\ntwo\n")]).lines).toEqual(["one", "two"]);
  });

  it("keeps empty lines in the middle", () => {
    expect(frame([Buffer.from("a\n\n\nb\n")]).lines).toEqual(["a", "", "", "b"]);
  });

  it("strips exactly one trailing CR (CRLF input)", () => {
    expect(frame([Buffer.from("a\r\nb\r\r\nc\r")]).lines).toEqual(["a", "b\r", "c"]);
  });

  it("decodes multi-byte UTF-8 fed one byte at a time", () => {
    const text = 'héllo — 日本語 🎉\n{"t":"ünïcødé ✓"}\nend 🎉';
    expect(frame(bytewise(text)).lines).toEqual(["héllo — 日本語 🎉", '{"t":"ünïcødé ✓"}', "end 🎉"]);
  });

  it("decodes a character split across two chunks at every position", () => {
    const bytes = Buffer.from("ab🎉cd\nx", "utf8");
    for (let cut = 1; cut < bytes.length; cut += 1) {
      const { lines } = frame([bytes.subarray(0, cut), bytes.subarray(cut)]);
      expect(lines).toEqual(["ab🎉cd", "x"]);
    }
  });

  it("keeps U+2028 and U+2029 inside a JSON string on one line", () => {
    const line = JSON.stringify({ type: "assistant", text: "a\u2028b\u2029c" });
    const { lines } = frame([Buffer.from(`${line}\n${line}\n`)]);
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0] ?? "")).toEqual({ type: "assistant", text: "a\u2028b\u2029c" });
  });

  it("skips a line over the limit in one chunk and keeps the good ones around it", () => {
    const long = "x".repeat(20);
    const result = frame([Buffer.from(`ok1\n${long}\nok2\n`)], 10);
    expect(result).toEqual({ lines: ["ok1", "ok2"], oversized: 1 });
  });

  it("skips a line over the limit that spans many chunks, counting it once", () => {
    const chunks = [Buffer.from("ok1\nxxxx"), ...Array.from({ length: 50 }, () => Buffer.from("xxxx"))];
    chunks.push(Buffer.from("xx\nok2"));
    expect(frame(chunks, 10)).toEqual({ lines: ["ok1", "ok2"], oversized: 1 });
  });

  it("drops an oversized last line without a newline", () => {
    expect(frame([Buffer.from("ok\n"), Buffer.from("y".repeat(30))], 10)).toEqual({
      lines: ["ok"],
      oversized: 1,
    });
  });

  it("accepts a line of exactly the limit", () => {
    expect(frame([Buffer.from("1234567890\n")], 10)).toEqual({ lines: ["1234567890"], oversized: 0 });
  });

  it("counts the limit in bytes, not characters", () => {
    // Four 3-byte characters: 12 bytes, 4 UTF-16 units.
    expect(frame([Buffer.from("日本語日\nok\n")], 10)).toEqual({ lines: ["ok"], oversized: 1 });
  });

  it("reports consecutive oversized lines separately", () => {
    expect(frame([Buffer.from(`${"a".repeat(11)}\n${"b".repeat(11)}\nok\n`)], 10)).toEqual({
      lines: ["ok"],
      oversized: 2,
    });
  });

  it("handles a line over the default 4 MiB limit followed by good lines", () => {
    const big = Buffer.alloc(4 * 1024 * 1024 + 1, 0x61);
    const chunkSize = 65536;
    const chunks: Buffer[] = [Buffer.from('{"a":1}\n')];
    for (let offset = 0; offset < big.length; offset += chunkSize) {
      chunks.push(big.subarray(offset, offset + chunkSize));
    }
    chunks.push(Buffer.from('\n{"b":2}\n'));
    expect(frame(chunks)).toEqual({ lines: ['{"a":1}', '{"b":2}'], oversized: 1 });
  });
});

describe("createLineFramer: lines that may carry the reply", () => {
  /** Frames with a 100-byte bound, 1000 for lines of type `result` (or every line with `all`). */
  function frameReply(chunks: readonly Buffer[], all = false): Framed {
    const result: Framed = { lines: [], oversized: 0 };
    const framer = createLineFramer({
      maxLineBytes: 100,
      maxReplyLineBytes: 1000,
      replyLines: all ? everyLine : linesOfTypes(["result"], ["text"]),
      onLine: (line) => result.lines.push(line),
      onOversized: () => {
        result.oversized += 1;
      },
    });
    for (const chunk of chunks) framer.push(chunk);
    framer.end();
    return result;
  }

  const reply = JSON.stringify({ type: "result", result: "é".repeat(300) });
  const tool = JSON.stringify({ type: "user", content: "x".repeat(300) });

  it("reads a reply line past the ordinary bound, whole, in any chunking", () => {
    const text = `${tool}\n${reply}\n{"type":"small"}\n${reply}`;
    for (const size of [1, 7, 64, 99, 100, 101, 4096]) {
      const bytes = Buffer.from(text, "utf8");
      const chunks: Buffer[] = [];
      for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
      expect(frameReply(chunks)).toEqual({ lines: [reply, '{"type":"small"}', reply], oversized: 1 });
    }
  });

  it("still drops a reply line past its own bound", () => {
    const huge = JSON.stringify({ type: "result", result: "x".repeat(1200) });
    expect(frameReply([Buffer.from(`${huge}\nafter\n`)])).toEqual({ lines: ["after"], oversized: 1 });
  });

  it("finds the type after other keys, and not inside a nested object", () => {
    const later = JSON.stringify({
      session_id: "s",
      n: [1, { type: "x" }],
      type: "result",
      result: "y".repeat(200),
    });
    const nested = JSON.stringify({ message: { type: "result" }, body: "z".repeat(200) });
    expect(frameReply([Buffer.from(`${later}\n${nested}\n`)])).toEqual({ lines: [later], oversized: 1 });
  });

  it("a reply key that runs past the bound before the type is given (Claude's result)", () => {
    const late = `{"n":1,"text":"${"t".repeat(300)}","type":"other"}`;
    const other = `{"n":1,"pad":"${"t".repeat(300)}","type":"result"}`;
    expect(frameReply([Buffer.from(`${late}\n${other}\n`)])).toEqual({ lines: [late], oversized: 1 });
  });

  it("plain text: every line may carry the reply", () => {
    const line = "word ".repeat(60);
    expect(frameReply([Buffer.from(`${line}\n`)], true)).toEqual({
      lines: [line],
      oversized: 0,
    });
  });
});

describe("lineHead", () => {
  it.each([
    ['{"type":"result","x":1}', { type: "result" }],
    ['  \u001b[0m{"a":"}\\"","type":"item.completed"}', { type: "item.completed" }],
    ['{"a":{"type":"inner"},"b":[{"type":"no"}],"type":"outer"}', { type: "outer" }],
    ['{"a":{"type":"inner"}}', {}],
    ['{"type":5,"x":"type"}', {}],
    ["not json", {}],
    ['["type","result"]', {}],
    ['{"n":1,"result":"unfinished', { openKey: "result" }],
    ['{"message":{"content":[{"text":"unfinished', { openKey: "message" }],
  ])("%s → %o", (line, head) => {
    expect(lineHead(Buffer.from(line))).toEqual(head);
  });

  it("reads no further than it is told", () => {
    const line = Buffer.from(`{"pad":"${"p".repeat(100)}","type":"result"}`);
    expect(lineHead(line, 50)).toEqual({ openKey: "pad" });
    expect(lineHead(line)).toEqual({ type: "result" });
  });
});
