// The tools that run as tasks, and how: each task-capable tool's durable work (tasks.ts `TaskWork`).
// delegate's is its turns as background jobs (review's, its one job); its answer, once they have finished, is the blocking
// call's own. A tool that declares `taskSupport` in tools.ts needs its entry here.

import * as z from "zod/mini";
import { lazy } from "../lazy.js";
import { turnResultSchema } from "../result.js";
import { delegateAnswer, startDelegate, startedJobs } from "./job-tools.js";
import type { JobStart } from "./jobs.js";
import { startReview } from "./review-tools.js";
import type { TaskWork, TaskWorks } from "./tasks.js";
import type { DelegateInput, ReviewInput } from "./tools.js";

/** delegate's turns as started, read back from the task's record. */
const startsSchema = lazy(() =>
  z.array(
    z.union([
      z.object({
        kind: z.literal("started"),
        job: z.string(),
        conversation: z.string(),
        agent: z.string(),
      }),
      z.object({ kind: z.literal("failed"), agent: z.string(), result: turnResultSchema() }),
    ]),
  ),
);

const delegateWork: TaskWork = {
  async start(input, context) {
    const started = await startDelegate(input as DelegateInput, context);
    const jobs = startedJobs(started);
    // No turn started (each refused, or not installed): the answer is there at once.
    if (jobs.length === 0) return { answer: delegateAnswer(started, new Map(), context.env) };
    return { jobs, data: started };
  },
  answer(data, states, env) {
    const parsed = startsSchema().safeParse(data);
    const started: readonly JobStart[] = parsed.success ? parsed.data : [];
    return delegateAnswer(started, states, env);
  },
};

/** review's one job (the first reviewer's first conversation); its answer is the report, as for a
 * blocking call. */
const reviewWork: TaskWork = {
  async start(input, context) {
    const started = await startReview(input as ReviewInput, context);
    const jobs = startedJobs(started);
    if (jobs.length === 0) return { answer: delegateAnswer(started, new Map(), context.env) };
    return { jobs, data: started };
  },
  answer: delegateWork.answer,
};

export const TASK_WORKS: TaskWorks = new Map([
  ["delegate", delegateWork],
  ["review", reviewWork],
]);
