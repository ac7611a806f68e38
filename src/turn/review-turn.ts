// A reviewer's turn on its CLI's command line: its row's read-only arguments where the policy's
// full-permission ones would go, and its structured-output option (src/review/agent-args.ts). Where
// that option names a file, the findings' schema is written 0600 into the turn's own TMPDIR (else a
// private folder of the agent home, removed after), which the turn's end removes with it.

import { closeSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { nanoid } from "nanoid/non-secure";
import { fileHint, ScvError } from "../errors.js";
import { ensurePrivateDir } from "../home/agent-home.js";
import { removeIfPresent } from "../home/remove.js";
import { isTurnTemp } from "../home/turn-temp.js";
import { reviewTurnArgs } from "../review/agent-args.js";
import type { TurnPlan } from "./turn-types.js";

export interface PreparedReview {
  /** The plan's arguments with the review's in place. */
  readonly args: readonly string[];
  /** The schema file written for it, outside the turn's TMPDIR: removed when the turn ends. */
  readonly leftover?: string;
}

/** The arguments of a reviewer's turn, its schema file written first where its row needs one;
 * `turnTemp` is the turn's own TMPDIR, if it has one. A plan that is no review's is left as it is. */
export function prepareReview(
  plan: TurnPlan,
  args: readonly string[],
  turnTemp: string | undefined,
): PreparedReview {
  if (plan.review === undefined) return { args };
  const inTemp = turnTemp !== undefined && isTurnTemp(turnTemp, plan.handle);
  const path = inTemp
    ? join(turnTemp, "scv-review-schema.json")
    : join(plan.home, ".scv", `review-schema-${nanoid(10)}.json`);
  const review = reviewTurnArgs(plan.entry, path);
  const at = plan.review.at;
  const placed = [...args.slice(0, at), ...review.args, ...args.slice(at)];
  if (review.file === undefined) return { args: placed };
  if (!inTemp) ensurePrivateDir(join(plan.home, ".scv"), plan.home);
  writePrivate(review.file.path, review.file.content);
  return { args: placed, ...(inTemp ? {} : { leftover: review.file.path }) };
}

/** Removes what `prepareReview` left outside the turn's TMPDIR. Never throws. */
export function removeReviewFile(prepared: PreparedReview | undefined): void {
  if (prepared?.leftover === undefined) return;
  try {
    removeIfPresent(prepared.leftover);
  } catch {
    // 0600, in the agent home's private folder.
  }
}

/** A new file only its owner can read (O_EXCL: never through a link someone placed). */
function writePrivate(path: string, content: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(path, "wx", 0o600);
    writeSync(fd, content);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ScvError(
      "IO",
      `cannot write the reviewer's schema file ${path}: ${(error as Error).message} — ${fileHint(code)}`,
      { cause: error },
    );
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
