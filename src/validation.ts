// English text for zod issues. scv validates with zod/mini, which loads no locale: an issue's own
// message is just "Invalid input" unless the schema gave one. Where scv shows a validation failure
// to a person (a bad config file), it parses with `{ error: issueText }`, so every issue says what
// was expected and what kind of value was found. A schema's own message still wins over this one.
//
// Only the kind of a value ever goes into the text, never the value itself: a config file's env
// table may hold a key.

import type * as z from "zod/mini";
import { nearestWord } from "./nearest.js";

const NOUNS: Readonly<Record<string, string>> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "a table",
  record: "a table",
  array: "an array",
  null: "null",
  undefined: "nothing",
  date: "a date",
};

/** Where a config file's issue is (its key path) and what it says: an unknown key, which zod reports
 * at its parent, is named at its own path, with the key of `schema` there it most likely misspells
 * (`modle` → `model`). */
export function issueAt(
  issue: z.core.$ZodIssue | undefined,
  schema?: z.core.$ZodType,
): { keyPath: string[]; message: string } {
  const keyPath = (issue?.path ?? []).map(String);
  if (issue?.code === "unrecognized_keys") {
    const key = issue.keys[0];
    if (key === undefined) return { keyPath, message: "unknown key" };
    const near = schema === undefined ? undefined : nearestWord(keysAt(schema, issue.path), key);
    keyPath.push(key);
    return { keyPath, message: near === undefined ? "unknown key" : `unknown key — did you mean ${near}?` };
  }
  // Specific: parsed with `issueText`, or the schema's own message.
  return { keyPath, message: issue?.message ?? "invalid" };
}

/** The message for one raw issue, from its code and details. */
export function issueText(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return `expected ${noun(issue.expected)}, got ${kindOf(issue.input, issue.expected)}`;
    case "invalid_value":
      return issue.values.length === 1
        ? `expected ${JSON.stringify(issue.values[0])}`
        : `expected one of ${issue.values.map((value) => JSON.stringify(value)).join(", ")}`;
    case "too_small":
      return bound(
        issue.origin,
        issue.minimum,
        issue.exact ? "exactly" : issue.inclusive ? "at least" : "more than",
      );
    case "too_big":
      return bound(
        issue.origin,
        issue.maximum,
        issue.exact ? "exactly" : issue.inclusive ? "at most" : "less than",
      );
    case "invalid_format":
      return issue.format === "regex" && issue.pattern !== undefined
        ? `expected text matching ${issue.pattern}`
        : `expected ${issue.format} text`;
    case "not_multiple_of":
      return `expected a multiple of ${String(issue.divisor)}`;
    case "unrecognized_keys":
      return `unknown key${issue.keys.length === 1 ? "" : "s"}: ${issue.keys.join(", ")}`;
    case "invalid_key":
      return `invalid key: ${issue.issues[0]?.message ?? "not allowed here"}`;
    case "invalid_element":
      return `invalid value in ${issue.origin}`;
    case "invalid_union":
      return Array.isArray(issue.options) && issue.options.length > 0
        ? `expected ${issue.discriminator ?? "its discriminator"} to be one of ${issue.options.map((option) => JSON.stringify(option)).join(", ")}`
        : "matches none of the allowed forms";
    default:
      return "invalid value";
  }
}

function noun(type: string): string {
  return NOUNS[type] ?? `a ${type}`;
}

/** What kind of value `input` is, in the words of `noun`. */
function kindOf(input: unknown, expected: string): string {
  if (input === null) return "null";
  if (Array.isArray(input)) return "an array";
  if (input instanceof Date) return "a date";
  if (typeof input === "number") {
    if (Number.isNaN(input)) return "NaN";
    if (!Number.isFinite(input)) return "an infinite number";
    if (expected === "int" && !Number.isInteger(input)) return "a fraction";
  }
  if (typeof input === "boolean") return "a boolean";
  return noun(typeof input);
}

function bound(origin: string, limit: number | bigint, relation: string): string {
  switch (origin) {
    case "string":
      return relation === "at least" && Number(limit) === 1
        ? "expected a non-empty string"
        : `expected ${relation} ${String(limit)} characters`;
    case "array":
    case "set":
      return `expected ${relation} ${String(limit)} items`;
    default:
      return `expected ${relation} ${String(limit)}`;
  }
}

/** The keys a table at `path` in `schema` may hold: through optional values, tables of tables
 * (records) and the tables of a union. */
function keysAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): string[] {
  const def = schema._zod.def as unknown as Readonly<Record<string, unknown>>;
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
    case "readonly":
      return keysAt(def.innerType as z.core.$ZodType, path);
    case "pipe":
      return keysAt(def.in as z.core.$ZodType, path);
    case "union":
      return [...new Set((def.options as z.core.$ZodType[]).flatMap((option) => keysAt(option, path)))];
    case "record":
      return path.length === 0 ? [] : keysAt(def.valueType as z.core.$ZodType, path.slice(1));
    case "object": {
      const shape = def.shape as Readonly<Record<string, z.core.$ZodType>>;
      const [first, ...rest] = path;
      if (first === undefined) return Object.keys(shape);
      const inner = shape[String(first)];
      return inner === undefined ? [] : keysAt(inner, rest);
    }
    case "array":
      return path.length === 0 ? [] : keysAt(def.element as z.core.$ZodType, path.slice(1));
    default:
      return [];
  }
}
