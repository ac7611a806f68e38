// Which JSON string values a parser can do without. Agents repeat whole tool outputs in their
// stream (Claude's `tool_use_result`, Codex's `aggregated_output`), and decoding those long strings
// is most of what reading the stream costs; a parser that never reads them names their places, and
// the framer cuts them to a short prefix before the line is decoded (elide-strings.ts).

/** Where a string value sits in its line. */
export interface StringPlace {
  /** The keys from the line's top value down to the string; `"[]"` steps into an array element.
   * `["message", "content", "[]", "text"]` is `message.content[i].text`. */
  readonly path: readonly string[];
  /** `types[i]`: the `type` string of the object that holds `path[i]`, when that object gave its
   * `type` before this string (undefined otherwise, and for arrays). */
  readonly types: readonly (string | undefined)[];
}

/** A parser's answer to "may this long string be cut to a prefix?". It must answer yes only for
 * values whose content never reaches the parsed turn or its events, and it runs only for strings
 * longer than `ElisionLimits.minStringBytes`. */
export type ElisionPolicy = (place: StringPlace) => boolean;

export interface ElisionLimits {
  /** Lines shorter than this are decoded as they are: scanning them costs more than it saves. */
  readonly minLineBytes: number;
  /** Strings shorter than this (raw JSON bytes between the quotes) are kept whole. */
  readonly minStringBytes: number;
  /** How much of an elided string is kept (at most; cut back to a character and escape boundary). */
  readonly keepBytes: number;
}

/** Chosen on the parser benchmark's streams: below ~1 KB a line's decoding costs about what its scan
 * does, and a 128-byte prefix still shows what a value was. */
export const DEFAULT_ELISION_LIMITS: ElisionLimits = {
  minLineBytes: 1024,
  minStringBytes: 512,
  keepBytes: 128,
};
