// Reading a key: piped input, and the no-echo prompt driven like a raw terminal.

import { PassThrough, Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { promptKeyNoEcho, type RawTerminal, readKeyFromStream } from "../../src/cli/secret-input.js";

describe("readKeyFromStream", () => {
  it("drops one trailing line break and keeps the rest for the check", async () => {
    expect(await readKeyFromStream(Readable.from(["sk-", "abc\n"]))).toBe("sk-abc");
    expect(await readKeyFromStream(Readable.from(["sk-abc\r\n"]))).toBe("sk-abc");
    expect(await readKeyFromStream(Readable.from(["sk-abc\n\n"]))).toBe("sk-abc\n");
    expect(await readKeyFromStream(Readable.from([]))).toBe("");
  });

  it("refuses more than 16 KiB", async () => {
    await expect(readKeyFromStream(Readable.from(["x".repeat(17 * 1024)]))).rejects.toThrow(/16 KiB/);
  });
});

/** A stand-in for a TTY stdin that records raw-mode switches. */
function fakeTerminal(): RawTerminal & PassThrough & { modes: boolean[] } {
  const stream = new PassThrough() as PassThrough & {
    modes: boolean[];
    isTTY: boolean;
    setRawMode(m: boolean): void;
  };
  stream.modes = [];
  stream.isTTY = true;
  stream.setRawMode = (mode: boolean) => {
    stream.modes.push(mode);
  };
  return stream;
}

function output(): PassThrough & { text: () => string } {
  const stream = new PassThrough() as PassThrough & { text: () => string };
  let text = "";
  stream.on("data", (chunk: Buffer) => {
    text += chunk.toString();
  });
  stream.text = () => text;
  return stream;
}

describe("promptKeyNoEcho", () => {
  it("reads to Enter with raw mode on, echoes nothing, and restores the terminal", async () => {
    const input = fakeTerminal();
    const out = output();
    const key = promptKeyNoEcho(input, out, "key: ");
    input.write("sk-CANARY");
    input.write("x\u007f"); // a typo, then backspace
    input.write("\r");
    expect(await key).toBe("sk-CANARY");
    expect(input.modes).toEqual([true, false]);
    expect(out.text()).toBe("key: \n");
  });

  it("Ctrl-C interrupts with exit 130 and restores the terminal", async () => {
    const input = fakeTerminal();
    const key = promptKeyNoEcho(input, output(), "key: ");
    input.write("abc\u0003");
    await expect(key).rejects.toMatchObject({ exitCode: 130 });
    expect(input.modes).toEqual([true, false]);
  });

  it("Ctrl-D on an empty line gives an empty key (refused later), Ctrl-U clears", async () => {
    const input = fakeTerminal();
    const key = promptKeyNoEcho(input, output(), "key: ");
    input.write("abc\u0015\u0004");
    expect(await key).toBe("");
  });
});
