// What an API key may look like. The key is checked before anything is written: empty keys and
// keys with whitespace or control characters are refused (a pasted key with a stray newline or
// space would otherwise be stored and fail much later).

import { ScvError } from "../errors.js";

/** Why `key` is not acceptable, or undefined when it is. */
export function apiKeyProblem(key: string): string | undefined {
  if (key === "") return "the key is empty";
  // Printable ASCII, as keys are issued, is none of the characters below: answered without building
  // the Unicode classes, which V8 does on first use (every turn checks the stored key).
  if (/^[\x21-\x7e]+$/.test(key)) return undefined;
  // \p{Z} and \s: every kind of space and line break; \p{Cc}/\p{Cf}: control and invisible format characters.
  if (/[\s\p{Z}\p{Cc}\p{Cf}]/u.test(key)) return "the key contains whitespace or control characters";
  return undefined;
}

/** A key as typed or piped: one trailing line break (`echo`, a terminal's Enter) is not part of it. */
export function trimKeyInput(raw: string): string {
  return raw.replace(/\r?\n$/, "");
}

/** Throws the usage error for an unacceptable key; its text never contains the key. */
export function requireValidKey(key: string): string {
  const problem = apiKeyProblem(key);
  if (problem !== undefined) {
    throw new ScvError("USAGE", `${problem} — nothing was stored; paste the key exactly as issued`);
  }
  return key;
}
