// A background job's permission question and its answer, as two files beside its other files
// (turn-files.ts), so the detached scv running the turn and the `scv mcp` server answering for its
// caller need no other channel:
//
//   <job>.ask.json     written by the turn when its agent asks (atomic, 0600): the question, with an
//                      id of its own; removed once it is answered or the turn stops waiting
//   <job>.answer.json  created by the answerer, never replaced (atomic, 0600): the id it answers and
//                      the answer; the turn takes it only when the id is its question's
//   <job>.questions.json  every question the turn asked and what became of it (atomic, 0600,
//                      written by the turn alone), so a late or mistaken answer is told what happened
//
// A question is pending while its ask file exists and no answer with its id does. An answer for a
// question that went meanwhile (the turn's time ran out, it was stopped) is removed by whoever sees
// it first; the turn's own end removes the three files, the reaper those of a turn whose scv died.

import { customAlphabet } from "nanoid/non-secure";
import * as z from "zod/mini";
import { lazy } from "../lazy.js";
import { createAtomicSync, writeAtomicSync } from "./atomic.js";
import { readJsonFile } from "./json-file.js";
import type { Env } from "./paths.js";
import { removeIfPresent } from "./remove.js";
import { jobFile } from "./turn-files.js";

export const APPROVAL_ANSWERS = ["once", "always", "reject"] as const;
export type ApprovalAnswer = (typeof APPROVAL_ANSWERS)[number];

/** An approval's id: 8 characters, new for each question. */
export const APPROVAL_PATTERN = /^[0-9a-z]{8}$/;
const APPROVAL_ID = customAlphabet("0123456789abcdefghijkmnpqrstuvwxyz", 8);

const askSchema = lazy(() =>
  z.object({
    version: z.literal(1),
    id: z.string().check(z.regex(APPROVAL_PATTERN)),
    agent: z.string(),
    /** The tool, as the events name it. */
    tool: z.string(),
    /** What it would do, one redacted line. */
    summary: z.string(),
    /** The answers the agent offers, in the order once, always, reject. */
    answers: z.array(z.enum(APPROVAL_ANSWERS)),
    askedAt: z.string(),
  }),
);
export type PendingApproval = z.infer<ReturnType<typeof askSchema>>;

const answerSchema = lazy(() =>
  z.object({
    version: z.literal(1),
    id: z.string().check(z.regex(APPROVAL_PATTERN)),
    answer: z.enum(APPROVAL_ANSWERS),
  }),
);
type AnswerRecord = z.infer<ReturnType<typeof answerSchema>>;

/** What became of a question the turn asked. */
export type QuestionFate =
  | { readonly state: "asked" }
  | { readonly state: "answered"; readonly answer: ApprovalAnswer }
  /** The turn stopped waiting before an answer came (it was stopped, its time ran out, the agent went on). */
  | { readonly state: "withdrawn" };

const fateSchema = lazy(() =>
  z.union([
    z.object({ id: z.string(), state: z.literal("asked") }),
    z.object({ id: z.string(), state: z.literal("answered"), answer: z.enum(APPROVAL_ANSWERS) }),
    z.object({ id: z.string(), state: z.literal("withdrawn") }),
  ]),
);
const questionsSchema = lazy(() => z.object({ version: z.literal(1), questions: z.array(fateSchema()) }));

/** The most questions of one turn remembered: the latest. */
const MAX_REMEMBERED = 200;

/** What became of question `id` of the job; undefined when the job never asked it (or has ended). */
export function questionFate(job: string, id: string, env: Env): QuestionFate | undefined {
  const found = readJsonFile(jobFile(job, "questions", env), questionsSchema())?.questions.findLast(
    (each) => each.id === id,
  );
  if (found === undefined) return undefined;
  const { id: _id, ...fate } = found;
  return fate;
}

/** Notes what became of question `id` (only the turn writes this file). */
function remember(job: string, id: string, fate: QuestionFate, env: Env): void {
  const path = jobFile(job, "questions", env);
  const known = readJsonFile(path, questionsSchema())?.questions ?? [];
  const questions = [...known.filter((each) => each.id !== id), { id, ...fate }].slice(-MAX_REMEMBERED);
  writeAtomicSync(path, `${JSON.stringify({ version: 1, questions })}\n`, { fsync: false });
}

/** The question in words, one line: `<agent> asks to run execute: $ touch probe.txt`. */
export function questionText(approval: Pick<PendingApproval, "agent" | "tool" | "summary">): string {
  const what = approval.summary === "" ? approval.tool : `${approval.tool}: ${approval.summary}`;
  return `${approval.agent} asks to run ${what}`;
}

/** Puts a question up for the job's caller; returns it with its new id. */
export function postQuestion(
  job: string,
  question: Omit<PendingApproval, "version" | "id" | "askedAt">,
  env: Env,
): PendingApproval {
  const ask: PendingApproval = {
    version: 1,
    id: APPROVAL_ID(),
    ...question,
    askedAt: new Date().toISOString(),
  };
  // An answer left from an earlier question is not this one's.
  removeIfPresent(jobFile(job, "answer", env));
  remember(job, ask.id, { state: "asked" }, env);
  writeAtomicSync(jobFile(job, "ask", env), `${JSON.stringify(ask, null, 2)}\n`, { fsync: false });
  return ask;
}

/** The answer to question `id`, taken (both files removed) once there is one; undefined until then.
 * An answer to another question is dropped. */
export function takeAnswer(job: string, id: string, env: Env): ApprovalAnswer | undefined {
  const path = jobFile(job, "answer", env);
  const answer = readJsonFile(path, answerSchema());
  if (answer === undefined) return undefined;
  if (answer.id !== id) {
    removeIfPresent(path);
    return undefined;
  }
  // The question first: nobody sees it pending again once it is answered.
  removeIfPresent(jobFile(job, "ask", env));
  removeIfPresent(path);
  remember(job, id, { state: "answered", answer: answer.answer }, env);
  return answer.answer;
}

/** Withdraws question `id` and any answer to it: the turn stopped waiting for it. */
export function withdrawQuestion(job: string, id: string, env: Env): void {
  removeIfPresent(jobFile(job, "ask", env));
  removeIfPresent(jobFile(job, "answer", env));
  if (questionFate(job, id, env)?.state === "asked") remember(job, id, { state: "withdrawn" }, env);
}

/** Removes the job's questions and answers: its turn has ended. */
export function endQuestions(job: string, env: Env): void {
  removeIfPresent(jobFile(job, "ask", env));
  removeIfPresent(jobFile(job, "answer", env));
  removeIfPresent(jobFile(job, "questions", env));
}

/** The job's question while it waits for an answer; undefined when none does. */
export function pendingApproval(job: string, env: Env): PendingApproval | undefined {
  const askPath = jobFile(job, "ask", env);
  const ask = readJsonFile(askPath, askSchema());
  if (ask === undefined) return undefined;
  if (readJsonFile(jobFile(job, "answer", env), answerSchema())?.id === ask.id) return undefined;
  // Read again: the turn may have taken its answer between the two reads (takeAnswer removes the
  // question, then the answer), and a question read before that is not pending — `approve` would
  // show the question it just answered as the next one.
  return readJsonFile(askPath, askSchema())?.id === ask.id ? ask : undefined;
}

/** Answers question `id` of the job: "answered", or why not ("gone": it is no longer pending;
 * "taken": another answer came first). An answer that meets the question's withdrawal (the turn's
 * time ran out that moment) is dropped by the turn, which takes only its own question's answer. */
export function giveAnswer(
  job: string,
  id: string,
  answer: ApprovalAnswer,
  env: Env,
): "answered" | "gone" | "taken" {
  if (pendingApproval(job, env)?.id !== id) return "gone";
  const record: AnswerRecord = { version: 1, id, answer };
  const path = jobFile(job, "answer", env);
  const text = `${JSON.stringify(record)}\n`;
  if (createAtomicSync(path, text, { fsync: false })) return "answered";
  // An answer is there already: this question's (another caller was first), or an earlier one's.
  if (readJsonFile(path, answerSchema())?.id === id) return "taken";
  removeIfPresent(path);
  return createAtomicSync(path, text, { fsync: false }) ? "answered" : "taken";
}
