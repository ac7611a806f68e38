// Reassembles one pretty-printed JSON object spread over many lines (Gemini CLI's
// `--output-format json` prints `JSON.stringify(output, null, 2)`), with a bound on its size.

export type AssembleResult =
  /** Not part of a multi-line object: parse the line as it is. */
  | { kind: "line"; text: string }
  /** Swallowed into an object still open. */
  | { kind: "pending" }
  /** The whole object, ready to parse. */
  | { kind: "object"; text: string }
  /** The object outgrew the bound and was dropped. */
  | { kind: "overflow" };

const DEFAULT_MAX_OBJECT_CHARS = 16 * 1024 * 1024;

export class PrettyObjectAssembler {
  private parts: string[] = [];
  private size = 0;
  private open = false;
  private overflowed = false;

  constructor(private readonly maxChars = DEFAULT_MAX_OBJECT_CHARS) {}

  push(line: string): AssembleResult {
    if (!this.open) {
      // `JSON.stringify(value, null, 2)` puts the top-level braces alone on their own lines at
      // column 0; every nested line is indented, so the closing `}` cannot be mistaken.
      if (line.trimEnd() !== "{") return { kind: "line", text: line };
      this.open = true;
      this.overflowed = false;
      this.parts = [line];
      this.size = line.length;
      return { kind: "pending" };
    }
    if (!this.overflowed) {
      this.size += line.length + 1;
      if (this.size > this.maxChars) {
        this.overflowed = true;
        this.parts = [];
      } else {
        this.parts.push(line);
      }
    }
    if (line.trimEnd() !== "}") return { kind: "pending" };
    this.open = false;
    const text = this.parts.join("\n");
    this.parts = [];
    return this.overflowed ? { kind: "overflow" } : { kind: "object", text };
  }

  /** An object left open when the stream ended: it counts as one bad line. */
  get unfinished(): boolean {
    return this.open;
  }
}
