import { describe, expect, it } from "vitest";
import { printable, toolLine } from "../../src/cli/progress.js";
import { forStream, jsonLine, visibleControls, visibleLine } from "../../src/cli/terminal-text.js";

describe("visibleControls", () => {
  it.each([
    ["OSC 52 clipboard write", "\x1b]52;c;ZXZpbA==\x07", "␛]52;c;ZXZpbA==␇"],
    ["OSC title, ST-terminated", "\x1b]0;title\x1b\\", "␛]0;title␛\\"],
    ["CSI erase and move", "\x1b[2J\x1b[H", "␛[2J␛[H"],
    ["8-bit CSI", "\u009b31m", "<U+009B>31m"],
    ["lone carriage return", "ok\rforged", "ok␍forged"],
    ["backspace", "ab\bc", "ab␈c"],
    ["DEL", "a\x7fb", "a␡b"],
    ["NUL", "a\0b", "a␀b"],
    ["right-to-left override", "\u202eevil", "<U+202E>evil"],
    ["isolates", "\u2066x\u2069", "<U+2066>x<U+2069>"],
    ["zero-width space", "a\u200bb", "a<U+200B>b"],
    ["byte order mark", "\ufeffx", "<U+FEFF>x"],
  ])("shows %s", (_, input, expected) => expect(visibleControls(input)).toBe(expected));

  it("keeps newlines, tabs, CRLF and ordinary text in any script", () => {
    const text = "line one\n\tindented\r\nwindows line\nעברית العربية 中文 ✓ é\n";
    expect(visibleControls(text)).toBe(text);
  });

  it("changes nothing on a pipe, everything on a terminal", () => {
    expect(forStream({ isTTY: false }, "\x1b[31mred")).toBe("\x1b[31mred");
    expect(forStream({}, "\x1b[31mred")).toBe("\x1b[31mred");
    expect(forStream({ isTTY: true }, "\x1b[31mred")).toBe("␛[31mred");
  });

  it("keeps an error line one line", () => {
    expect(visibleLine("first\nsecond\r\nthird \x1b[1m")).toBe("first␤second␤third ␛[1m");
  });
});

describe("progress lines", () => {
  it("carry no bidi override or control from a tool summary", () => {
    const line = toolLine("claude", 3000, "$ cat \u202etxt.exe\u2066 \x1b]0;x\x07");
    expect(line).toBe("claude 3s $ cat <U+202E>txt.exe<U+2066>  ]0;x ");
    expect(printable("a\u200fb")).toBe("a<U+200F>b");
  });
});

describe("jsonLine", () => {
  it("is the same JSON value, with nothing a terminal acts on left raw", () => {
    const value = { reply: "a\u202eb\u2066c\u009bd\x7fe\u2028f\x1b[1m", n: 1 };
    const line = jsonLine(value);
    expect(JSON.parse(line)).toEqual(value);
    expect(line).toBe(String.raw`{"reply":"a\u202eb\u2066c\u009bd\u007fe\u2028f\u001b[1m","n":1}`);
  });

  it("writes a lone surrogate (a byte that was not UTF-8) as U+FFFD, and leaves text that only looks like one", () => {
    const value = { reply: "caf\udce9 \ud83c\udf89", literal: String.raw`\ud800 and \\ud800` };
    const line = jsonLine(value);
    expect(JSON.parse(line)).toEqual({ reply: "caf\ufffd \ud83c\udf89", literal: value.literal });
    expect(line).not.toMatch(/(?<!\\)(?:\\\\)*\\ud[89a-f]/i);
  });
});
