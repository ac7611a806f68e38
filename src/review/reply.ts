// A reviewer's reply read as its findings: the JSON object is the whole reply, or a fenced code block
// in it (the last one holding an object, so a reply that quotes code first still counts), checked
// with the findings' zod schema. Anything else is a problem said in words the reviewer can act on,
// and `repairPrompt` asks for the object again, once, in the same conversation (or, for a CLI that
// cannot continue one, `freshRepairPrompt` in a new one); nothing is ever
// guessed from prose.
//
// API: `readReply(text)` → `ReplyReading`; `repairPrompt(problem)` → the text of the repair turn;
// `freshRepairPrompt(original, problem)` for a CLI whose conversation cannot be continued. All pure.

import type * as z from "zod/mini";
import { issueText } from "../validation.js";
import { type ReviewReply, reviewReplySchema } from "./schema.js";

export type ReplyReading =
  | { readonly ok: true; readonly reply: ReviewReply }
  | {
      readonly ok: false;
      /** One line: what is wrong with the reply as a whole. */
      readonly problem: string;
      /** Each field that failed the schema, `path: what was expected` (at most `MAX_ISSUES`). */
      readonly issues: readonly string[];
    };

/** Issues listed in a reading (and so in the repair prompt): the first ones are enough to act on. */
const MAX_ISSUES = 20;

/** Code blocks fenced with three or more backticks or tildes, their info string dropped. */
const FENCED = /^ {0,3}(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n {0,3}\1[`~]*[ \t]*$/gm;

/** The JSON texts a reply may hold, most likely first: the whole reply, then its fenced blocks from
 * the last. */
function candidates(text: string): string[] {
  const blocks = [...text.matchAll(FENCED)].map((match) => match[2] ?? "");
  return [text.trim(), ...blocks.reverse().map((block) => block.trim())].filter((each) => each !== "");
}

function parseObject(text: string): { readonly value: unknown } | { readonly error: string } {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return { value };
    return { error: `it is JSON, but ${Array.isArray(value) ? "an array" : typeof value}, not an object` };
  } catch (error) {
    return { error: `it is not valid JSON (${(error as Error).message})` };
  }
}

/** Where an issue is, as a JSONPath-like string: `findings[2].severity`. */
function pathText(path: readonly PropertyKey[]): string {
  let text = "";
  for (const key of path) {
    text += typeof key === "number" ? `[${key}]` : `${text === "" ? "" : "."}${String(key)}`;
  }
  return text === "" ? "(the object)" : text;
}

/** Zod's issue texts speak of TOML tables; a reply is JSON. */
function jsonWords(message: string): string {
  return message.replaceAll("a table", "an object");
}

function issueLines(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.slice(0, MAX_ISSUES).map((issue) => `${pathText(issue.path)}: ${jsonWords(issue.message)}`);
}

/** The reply as findings, or why it is not. Pure. */
export function readReply(text: string): ReplyReading {
  const texts = candidates(text);
  if (texts.length === 0) return { ok: false, problem: "the reply was empty", issues: [] };
  let firstError: string | undefined;
  let closest: readonly z.core.$ZodIssue[] | undefined;
  for (const each of texts) {
    const parsed = parseObject(each);
    if ("error" in parsed) {
      firstError ??= parsed.error;
      continue;
    }
    const checked = reviewReplySchema().safeParse(parsed.value, { error: issueText });
    if (checked.success) return { ok: true, reply: checked.data };
    if (closest === undefined || checked.error.issues.length < closest.length) closest = checked.error.issues;
  }
  if (closest !== undefined) {
    const count = closest.length;
    return {
      ok: false,
      problem: `the JSON object does not match the schema (${count} problem${count === 1 ? "" : "s"})`,
      issues: issueLines(closest),
    };
  }
  const why = firstError ?? "no JSON found";
  const problem =
    texts.length === 1
      ? `the reply is not a JSON object: ${why}`
      : `neither the reply nor a fenced block in it is a JSON object (the reply: ${why})`;
  return { ok: false, problem, issues: [] };
}

/** The repair turn's prompt, sent in the reviewer's own conversation: what was wrong, and the ask
 * to send the object again. Pure. */
export function repairPrompt(problem: Extract<ReplyReading, { ok: false }>): string {
  const lines = [
    `Your review could not be read: ${problem.problem}.`,
    ...(problem.issues.length === 0 ? [] : ["", ...problem.issues.map((issue) => `- ${issue}`)]),
    "",
    "Reply again with only the JSON object the schema above describes — verdict, summary and findings —",
    "and nothing before or after it. Keep your review as it was; change only what makes it invalid.",
    "Change no file.",
  ];
  return lines.join("\n");
}

/** The repair turn's prompt where the conversation cannot be continued (a CLI without resume): the
 * original prompt again, and what was wrong with the first reply, which this turn never saw. Pure. */
export function freshRepairPrompt(original: string, problem: Extract<ReplyReading, { ok: false }>): string {
  const issues = problem.issues.length === 0 ? "" : ` (${problem.issues.join("; ")})`;
  return [
    `An earlier reply to this review could not be read: ${problem.problem}${issues}. Reply with only the JSON object the schema below describes, nothing before or after it.`,
    "",
    original,
  ].join("\n");
}
