// One redacted line saying what a tool call does (`$ npm test`, `edit src/a.ts`, `read README.md`,
// `search: TODO`), whichever CLI named the tool and however it shaped the arguments.

import { redact } from "./redact.js";
import { asRecord } from "./wire.js";

export const MAX_SUMMARY_CHARS = 120;

type ToolKind = "shell" | "edit" | "read" | "search" | "fetch" | "todo" | "other";

// Tried in order: `write_file` is an edit before it is anything else, `WebSearch` a search before a fetch.
const KIND_BY_NAME: readonly (readonly [ToolKind, RegExp])[] = [
  ["todo", /todo/],
  ["shell", /bash|shell|^sh$|command|^exec|terminal|powershell/],
  ["edit", /edit|write|create|replace|patch|apply|notebook|delete|file_change|^move|rename/],
  ["read", /read|view|^cat$|^open/],
  ["search", /grep|glob|search|find|^ls$|^list|codebase/],
  ["fetch", /fetch|browse|url/],
];

const COMMAND_FIELDS = ["command", "cmd", "script"];
const PATH_FIELDS = [
  "file_path",
  "path",
  "filePath",
  "absolute_path",
  "target_file",
  "notebook_path",
  "file",
];
const QUERY_FIELDS = ["pattern", "query", "q", "regex", "glob_pattern", "search"];
const URL_FIELDS = ["url", "uri"];

const SUMMARY_FIELDS: ReadonlySet<string> = new Set([
  ...COMMAND_FIELDS,
  ...PATH_FIELDS,
  ...QUERY_FIELDS,
  ...URL_FIELDS,
]);

/** Whether a summary reads the tool argument `field`: it reads no other, so the rest of a tool's
 * input (an edit's old and new text, a file's content) may be elided. */
export function isSummaryArgument(field: string): boolean {
  return SUMMARY_FIELDS.has(field);
}

function kindOf(name: string): ToolKind {
  const lower = name.toLowerCase();
  return KIND_BY_NAME.find(([, pattern]) => pattern.test(lower))?.[0] ?? "other";
}

function firstString(args: Record<string, unknown>, fields: readonly string[]): string | undefined {
  for (const field of fields) {
    const value = args[field];
    if (typeof value === "string" && value.trim() !== "") return value;
    // Codex and some MCP shells pass argv arrays.
    if (Array.isArray(value) && value.every((part) => typeof part === "string") && value.length > 0) {
      return value.join(" ");
    }
  }
  return undefined;
}

function describe(name: string, args: Record<string, unknown>): string {
  // Each kind looks only for the fields it shows: a summary runs on every tool call.
  switch (kindOf(name)) {
    case "shell": {
      const command = firstString(args, COMMAND_FIELDS);
      return command === undefined ? name : `$ ${command}`;
    }
    case "edit": {
      const path = firstString(args, PATH_FIELDS);
      return path === undefined ? name : `edit ${path}`;
    }
    case "read": {
      const path = firstString(args, PATH_FIELDS);
      return path === undefined ? name : `read ${path}`;
    }
    case "search": {
      const query = firstString(args, QUERY_FIELDS);
      if (query !== undefined) return `search: ${query}`;
      const path = firstString(args, PATH_FIELDS);
      return path === undefined ? name : `list ${path}`;
    }
    case "fetch": {
      const url = firstString(args, URL_FIELDS);
      return url === undefined ? name : `fetch ${url}`;
    }
    case "todo":
      return "update todos";
    case "other": {
      const command = firstString(args, COMMAND_FIELDS);
      if (command !== undefined) return `$ ${command}`;
      const detail =
        firstString(args, PATH_FIELDS) ?? firstString(args, QUERY_FIELDS) ?? firstString(args, URL_FIELDS);
      return detail === undefined ? name : `${name} ${detail}`;
    }
  }
}

/** Collapses to one line, redacts, then shortens (redacting first, so no token is cut in half). */
export function oneRedactedLine(text: string, maxChars = MAX_SUMMARY_CHARS): string {
  // Bounded before the regexes run: a tool input can be megabytes.
  const flat = text
    .slice(0, maxChars * 4)
    .replace(/\s+/g, " ")
    .trim();
  const safe = redact(flat);
  return safe.length > maxChars ? `${safe.slice(0, maxChars - 1)}…` : safe;
}

/** The one-line summary of a tool call named `name` with arguments `input`. */
export function summarizeTool(name: string, input: unknown): string {
  return oneRedactedLine(describe(name, asRecord(input)));
}
