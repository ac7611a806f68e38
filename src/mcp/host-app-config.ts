// Edits of a host's own config files that keep everything else in them as it was (a row's `mcpHost`):
// a key in one TOML table (a tool-call limit the host's `mcp add` cannot set), and a member of a
// JSON-with-comments file (a host whose `mcp add` only asks on a terminal). Pure functions.

import { applyEdits, modify, type ParseError, parse as parseJsonc, printParseErrorCode } from "jsonc-parser";
import { parse as parseToml } from "smol-toml";
import { ScvError } from "../errors.js";

/** `key = value` in the TOML table `table` (`[mcp_servers.scv]`), replacing the key's line there or
 * adding one under the table's header; undefined when the table has no header of its own. The result
 * is read back: a file the edit would leave meaning something else is refused. */
export function setTomlKey(
  text: string,
  table: readonly string[],
  key: string,
  value: number,
  file: string,
): string | undefined {
  const lines = text.split("\n");
  const header = lines.findIndex((line) => tableName(line) === table.join("."));
  if (header === -1) return undefined;
  let end = lines.findIndex((line, index) => index > header && /^\s*\[/.test(line));
  if (end === -1) end = lines.length;
  const keyLine = new RegExp(`^\\s*${key}\\s*=`);
  const existing = lines.findIndex((line, index) => index > header && index < end && keyLine.test(line));
  const line = `${key} = ${value}`;
  if (existing === -1) lines.splice(header + 1, 0, line);
  else lines[existing] = line;
  const edited = lines.join("\n");
  let read: unknown;
  try {
    read = parseToml(edited);
  } catch (error) {
    throw new ScvError(
      "IO",
      `${file} would not be valid TOML with ${line} in [${table.join(".")}] (${error instanceof Error ? error.message.split("\n")[0] : String(error)}) — add it by hand`,
    );
  }
  if (valueAt(read, [...table, key]) !== value) {
    throw new ScvError("IO", `${file}: scv could not set ${line} in [${table.join(".")}] — add it by hand`);
  }
  return edited;
}

/** A TOML table header's dotted name, with quoted keys unquoted; undefined for any other line. */
function tableName(line: string): string | undefined {
  const match = /^\s*\[\s*([^[\]]+?)\s*\]\s*(?:#.*)?$/.exec(line);
  if (match?.[1] === undefined) return undefined;
  return match[1]
    .split(".")
    .map((part) =>
      part
        .trim()
        .replace(/^"(.*)"$/, "$1")
        .replace(/^'(.*)'$/, "$1"),
    )
    .join(".");
}

function valueAt(value: unknown, path: readonly string[]): unknown {
  let at = value;
  for (const key of path) {
    if (typeof at !== "object" || at === null) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** Reads a JSON-with-comments file's text; a file with syntax errors is refused rather than edited. */
export function readJsonc(text: string, file: string): unknown {
  if (text.trim() === "") return {};
  const errors: ParseError[] = [];
  const value = parseJsonc(text, errors, { allowTrailingComma: true });
  const first = errors[0];
  if (first !== undefined) {
    throw new ScvError(
      "BAD_CONFIG",
      `${file} is not valid JSON (${printParseErrorCode(first.error)} at character ${first.offset}) — fix it first`,
    );
  }
  if (value !== undefined && (typeof value !== "object" || value === null || Array.isArray(value))) {
    throw new ScvError("BAD_CONFIG", `${file} does not hold a JSON object — fix it first`);
  }
  return value;
}

/** The member at `path` set to `value` (removed when undefined), comments and layout kept, indented
 * as the host writes its own edits (two spaces). */
export function setJsonMember(text: string, path: readonly string[], value: unknown, file: string): string {
  const base = text.trim() === "" ? "{}\n" : text;
  readJsonc(base, file);
  const edits = modify(base, [...path], value, {
    formattingOptions: { insertSpaces: true, tabSize: 2, eol: "\n" },
  });
  return applyEdits(base, edits);
}

/** Whether the JSON(C) text has a member at `path`. */
export function hasJsonMember(text: string, path: readonly string[], file: string): boolean {
  return valueAt(readJsonc(text, file), path) !== undefined;
}
