// A background turn as the launcher hands it to the detached scv that runs it: the turn as JSON on
// that scv's stdin, and a pipe (fd 3, named by SCV_READY_FD) on which it says "started" once its
// agent runs.

import { closeSync, fstatSync, writeSync } from "node:fs";
import * as z from "zod/mini";
import { ScvError } from "../errors.js";
import { HANDLE_PATTERN } from "../home/conversations.js";
import { JOB_PATTERN } from "../home/turn-files.js";
import { lazy } from "../lazy.js";
import { READY_FD } from "../process/helpers.js";

/** The environment variable naming the detached scv's "started" pipe. */
export const READY_FD_VARIABLE = "SCV_READY_FD";

const jobSchema = lazy(() =>
  z.object({
    handle: z.string().check(z.regex(HANDLE_PATTERN)),
    /** The turn's job, `<handle>.<8 characters>`: its tag, and the name of its log and result. */
    job: z.string().check(z.regex(JOB_PATTERN)),
    request: z.object({
      agent: z.optional(z.string()),
      continue: z.optional(z.string()),
      handle: z.optional(z.string()),
      prompt: z.string(),
      model: z.optional(z.string()),
      effort: z.optional(z.string()),
      policy: z.optional(z.enum(["auto", "default"])),
      transport: z.optional(z.enum(["process", "acp"])),
      cwd: z.optional(z.string()),
      timeoutMs: z.optional(z.number()),
      idleTimeoutMs: z.optional(z.number()),
      env: z.optional(z.record(z.string(), z.string())),
      mcp: z.optional(z.readonly(z.array(z.string()))),
      account: z.optional(z.string()),
      accounts: z.optional(z.readonly(z.array(z.string()))),
      waitForResetMs: z.optional(z.number()),
      review: z.optional(z.boolean()),
    }),
    /** A job that is a review (`scv review --background`, the MCP review tool: `request` is its first
     * reviewer's first turn) or a reviewed delegation (`--review-by`: `request` is the author's). */
    review: z.optional(
      z.object({
        kind: z.enum(["review", "delegation"]),
        /** The reviewers chosen (a review), or as given (a delegation: `auto` alone, or none). */
        reviewers: z.array(z.string()),
        rounds: z.optional(z.int()),
        focus: z.optional(z.string()),
        /** What a review reviews, as asked (`job` is resolved again by the runner). */
        scope: z.optional(
          z.object({
            kind: z.enum(["changes", "base", "staged", "commit", "job"]),
            ref: z.optional(z.string()),
          }),
        ),
      }),
    ),
    lockWaitMs: z.optional(z.number()),
    /** The launcher's environment as any agent may inherit it (credentials withheld), with the
     * endpoint keys scv reads (`api_key_env`): the turn's agent is made from it, while the runner's
     * own environment holds only what scv reads (os/detached-env.ts). */
    environment: z.optional(z.record(z.string(), z.string())),
    /** The launcher's caller answers the agent's permission requests (`scv mcp`'s approve tool:
     * jobs/approval.ts); otherwise they are rejected. */
    callerApproves: z.optional(z.boolean()),
  }),
);
export type Job = z.infer<ReturnType<typeof jobSchema>>;

export function parseJob(text: string): Job {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const parsed = jobSchema().safeParse(value);
  if (!parsed.success) {
    throw new ScvError("USAGE", "background-turn runs the turns of scv delegate --background — use that");
  }
  return parsed.data;
}

/** The pipe the launcher waits on; nothing when scv was not started by a launcher. */
export function readyPipe(fdText: string | undefined): {
  started: () => void;
  said: (word: string) => void;
  close: () => void;
} {
  let fd: number | undefined = fdText === String(READY_FD) ? READY_FD : undefined;
  try {
    // Node's "pipe" is a socket pair.
    const stat = fd === undefined ? undefined : fstatSync(fd);
    if (stat !== undefined && !stat.isSocket() && !stat.isFIFO()) fd = undefined;
  } catch {
    fd = undefined;
  }
  const close = () => {
    if (fd === undefined) return;
    try {
      closeSync(fd);
    } catch {
      // The launcher is gone; nobody listens.
    }
    fd = undefined;
  };
  const said = (word: string) => {
    if (fd === undefined) return;
    try {
      writeSync(fd, `${word}\n`);
    } catch {
      // As above.
    }
    close();
  };
  return { started: () => said("started"), said, close };
}
