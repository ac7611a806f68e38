// Permission questions of a background turn whose caller answers them (`scv mcp`'s jobs): each is
// put up in the job's files (home/approvals.ts) and waited for, one at a time, until the caller's
// answer comes (the approve tool) or the turn stops waiting (its time limit, `scv kill`, a cancel:
// the signal): it is then unanswered, and refused. The job shows as waiting for approval meanwhile (status, wait,
// scv ps).

import { type ApprovalAnswer, postQuestion, takeAnswer, withdrawQuestion } from "../home/approvals.js";
import type { Env } from "../home/paths.js";
import type { PermissionAnswer, PermissionQuestion } from "../turn/turn-types.js";

/** How often the turn looks for its answer. */
const POLL_MS = 100;

export function callerApprovals(
  job: string,
  env: Env,
): (question: PermissionQuestion, signal?: AbortSignal) => Promise<PermissionAnswer> {
  let queue: Promise<unknown> = Promise.resolve();
  return (question, signal) => {
    const asked = queue.then(() => askCaller(job, env, question, signal));
    queue = asked.catch(() => {});
    return asked;
  };
}

async function askCaller(
  job: string,
  env: Env,
  question: PermissionQuestion,
  signal?: AbortSignal,
): Promise<PermissionAnswer> {
  if (signal?.aborted) return "unanswered";
  const answers: ApprovalAnswer[] = [
    ...(question.offers.once ? (["once"] as const) : []),
    ...(question.offers.always ? (["always"] as const) : []),
    "reject",
  ];
  const ask = postQuestion(
    job,
    { agent: question.agent, tool: question.tool, summary: question.summary, answers },
    env,
  );
  try {
    return await new Promise<PermissionAnswer>((resolve) => {
      const finish = (answer: PermissionAnswer) => {
        clearInterval(timer);
        signal?.removeEventListener("abort", onAbort);
        resolve(answer);
      };
      const onAbort = () => finish("unanswered");
      const timer = setInterval(() => {
        const answer = takeAnswer(job, ask.id, env);
        if (answer !== undefined) finish(answer);
      }, POLL_MS);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  } finally {
    withdrawQuestion(job, ask.id, env);
  }
}
