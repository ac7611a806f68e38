// Text an agent wrote, made safe to show on a terminal: escape sequences (OSC 52 writing the
// clipboard, OSC 0 setting the window title, CSI moving the cursor or erasing lines), other control
// characters, 8-bit C1 controls, and the invisible characters that reorder or hide text (bidi
// overrides and isolates, zero-width characters) are shown as visible symbols instead of acting.
// Only on a terminal: into a pipe or a file a reply goes byte for byte.

/** C0 controls but tab and newline, DEL, C1 controls, and the bidi and zero-width format characters. */
const INVISIBLE_SOURCE =
  "[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2069\\ufeff]";
const INVISIBLE = new RegExp(INVISIBLE_SOURCE);
const INVISIBLE_ALL = new RegExp(INVISIBLE_SOURCE, "g");

/** `␛` for ESC, the Control Pictures for the other C0 controls and DEL (`␍`, `␇`, `␡`), `<U+202E>`
 * for the rest. A carriage return before a newline (CRLF text) stays. */
function visible(char: string, offset: number, text: string): string {
  const code = char.charCodeAt(0);
  if (code === 0x0d && text.charCodeAt(offset + 1) === 0x0a) return char;
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return "\u2421";
  return `<U+${code.toString(16).toUpperCase().padStart(4, "0")}>`;
}

/** `text` with every control and invisible formatting character made visible; newlines and tabs
 * stay. */
export function visibleControls(text: string): string {
  return INVISIBLE.test(text) ? text.replace(INVISIBLE_ALL, visible) : text;
}

/** `text` as it may be written to `stream`: made visible on a terminal, unchanged elsewhere. */
export function forStream(stream: { readonly isTTY?: boolean }, text: string): string {
  return stream.isTTY === true ? visibleControls(text) : text;
}

/** One line for a message on stderr: controls made visible, and line breaks too. */
export function visibleLine(text: string): string {
  return visibleControls(text.replace(/\r?\n/g, "\u2424"));
}

/** Characters JSON.stringify leaves raw that a terminal acts on or hides: DEL, C1, bidi, zero-width,
 * and the line separators. */
const JSON_RAW = /[\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]/g;

/** `JSON.stringify(value)` with those characters written as `\uXXXX` escapes: the same JSON value,
 * which no terminal showing the line can be made to act on. */
export function jsonLine(value: unknown): string {
  const text = JSON.stringify(value);
  return text
    .replace(JSON_RAW, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`)
    .replace(LONE_SURROGATE_ESCAPE, "$1\\ufffd");
}

/** A lone surrogate as JSON.stringify writes it (`\udc80`), not after an escaped backslash: no text,
 * which some JSON readers refuse; U+FFFD in its place (src/text-bytes.ts says why one is there). */
const LONE_SURROGATE_ESCAPE = /(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/gi;
