// What `scv mcp` reads of its stdin: lines within the bound passed on whole, however the bytes come in
// chunks; a longer line dropped as it comes and told once it ends, with the id of the request it was
// read from either end — never a nested id.

import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { boundedLines, type OversizedLine, requestId } from "../../src/mcp/bounded-stdin.js";

/** Writes `bytes` to a bounded reader in chunks of `size`; what it passed on and what it dropped. */
async function read(
  bytes: Buffer,
  size: number,
  maxBytes: number,
): Promise<{ passed: string; dropped: OversizedLine[] }> {
  const input = new PassThrough();
  const dropped: OversizedLine[] = [];
  const output = boundedLines(input, (line) => dropped.push(line), maxBytes);
  const chunks: Buffer[] = [];
  output.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => output.on("end", resolve));
  for (let at = 0; at < bytes.length; at += size) input.write(bytes.subarray(at, at + size));
  input.end();
  await ended;
  return { passed: Buffer.concat(chunks).toString("utf8"), dropped };
}

const ok = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list", params: { é: "😀" } });

describe("boundedLines", () => {
  it("passes lines within the bound whole, whatever the chunks, and drops each longer one, telling its id", async () => {
    const big = "x".repeat(5_000);
    const early = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { text: big } });
    // The TypeScript SDK's order: the id last.
    const late = JSON.stringify({
      method: "tools/call",
      params: { text: big, id: 3 },
      jsonrpc: "2.0",
      id: "late",
    });
    const notification = JSON.stringify({ jsonrpc: "2.0", method: "notifications/x", params: { text: big } });
    const stream = Buffer.from([ok(1), early, ok(2), late, notification, `${ok(3)}\r`, ok(4)].join("\n"));
    for (const size of [1, 7, 4096, stream.length]) {
      const { passed, dropped } = await read(stream, size, 1_000);
      expect(passed, `chunks of ${size}`).toBe(`${ok(1)}\n${ok(2)}\n${ok(3)}\r\n${ok(4)}\n`);
      expect(dropped).toEqual([
        { id: 7, bytes: Buffer.byteLength(early) },
        { id: "late", bytes: Buffer.byteLength(late) },
        { id: null, bytes: Buffer.byteLength(notification) },
      ]);
    }
  });

  it("a line just within the bound passes, one byte more is dropped", async () => {
    const line = "y".repeat(100);
    expect((await read(Buffer.from(`${line}\n${line}z\n`), 9, 100)).passed).toBe(`${line}\n`);
  });
});

describe("requestId", () => {
  const id = (head: string, tail = head) => requestId(Buffer.from(head), Buffer.from(tail));
  it("reads the top-level id at the start or the end, never one inside params", () => {
    expect(id('{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"a"')).toBe(12);
    expect(id('{"jsonrpc": "2.0", "id": "a\\"b", "method"')).toBe('a"b');
    expect(id('{"method":"tools/call","params":{"x":{"id":5}', 'xx"}},"jsonrpc":"2.0","id":-4}')).toBe(-4);
    expect(id('{"method":"tools/call","params":{"id":5,"text":"', 'aaa"}}')).toBeNull();
    expect(id('{"method":"tools/call","params":{"text":"', '"id":9}}}')).toBeNull();
    expect(id('{"method":"x","params":{"text":"\\"id\\":3', 'zz"}}')).toBeNull();
  });
});
