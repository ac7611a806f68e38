// `scv compare <handle|job>…`, `scv diff <handle|job> [paths…]` and `scv apply <handle|job>`: what a
// conversation's worktree holds, shown, compared with others, and brought into the user's tree
// (src/worktrees/ does the git; docs/worktrees.md says how they fit together).

import { resolve } from "node:path";
import { unreachable } from "../adapters.js";
import { jsonLine } from "../cli/terminal-text.js";
import { EXIT, ScvError } from "../errors.js";
import { preview, readConversation, writeConversation } from "../home/conversations.js";
import { readFinished } from "../home/turn-records.js";
import type { CliIo } from "../io.js";
import { type TurnResult, turnStatusSchema } from "../result.js";
import { expandAttempts } from "../turn/attempts.js";
import { turnRunning } from "../turn/worktree.js";
import { applyWorktree } from "../worktrees/apply.js";
import { type ComparedTurn, type ComparisonRow, comparisonRow } from "../worktrees/comparison.js";
import { showWorktreeDiff, worktreeDiffStat } from "../worktrees/diffstat.js";
import { type WorktreeOwner, worktreeOf } from "../worktrees/of.js";
import { renderComparison } from "./comparison.js";

/** The turn a row shows: a job's own result while it is kept (until `scv wait` reads it), else the
 * conversation's record — its totals, and its last turn's status and check. */
function comparedTurn(owner: WorktreeOwner, env: CliIo["env"]): ComparedTurn & Pick<TurnResult, "check"> {
  const kept = owner.job === undefined ? undefined : readFinished(owner.job, env)?.result;
  if (kept !== undefined) return kept;
  const { record } = owner;
  const status = turnStatusSchema().safeParse(record.lastStatus);
  return {
    agent: record.agent,
    conversation: record.handle,
    usage: record.usage,
    cost: record.usage.costUsd ?? null,
    duration: Math.round(record.duration ?? 0),
    status: status.success ? status.data : "completed",
    exitCode: record.lastExitCode ?? EXIT.ok,
    ...(record.lastCheck === undefined ? {} : { check: record.lastCheck }),
  };
}

export async function compareCommand(
  io: CliIo,
  names: readonly string[],
  options: { json?: boolean } = {},
): Promise<number> {
  const owners = names.map((name) => worktreeOf(name, io.env));
  for (const owner of owners) {
    if (turnRunning(owner.handle, io.env))
      io.stderr.write(
        `scv: a turn of ${owner.handle} is running — its row shows what its branch holds so far\n`,
      );
  }
  // Several of one agent are numbered, as after the fan-out that made them.
  const numbered = expandAttempts(owners, 1, (owner) => owner.record.agent);
  const rows: ComparisonRow[] = await Promise.all(
    numbered.map(async ({ target: owner, attempt, of }) => {
      const turn = comparedTurn(owner, io.env);
      const check = turn.check;
      return comparisonRow({
        result: turn,
        attempt: { attempt, of },
        worktree: owner.worktree,
        // What the branch holds now, against its base: every turn of it.
        diffstat: await worktreeDiffStat(owner.worktree, io.env),
        ...(check === undefined
          ? {}
          : { check: { status: check.status, exitCode: check.exitCode, durationMs: check.duration } }),
      });
    }),
  );
  io.stdout.write(options.json ? `${jsonLine(rows)}\n` : renderComparison(rows));
  return EXIT.ok;
}

export async function diffCommand(io: CliIo, name: string, paths: readonly string[] = []): Promise<number> {
  const { worktree } = worktreeOf(name, io.env);
  return showWorktreeDiff(worktree, io.env, paths);
}

export interface ApplyFlags {
  readonly commit?: boolean;
  readonly keepConflicts?: boolean;
  readonly cwd?: string;
}

const listed = (paths: readonly string[]) =>
  paths.slice(0, 5).join(", ") + (paths.length > 5 ? `, … (${paths.length} in all)` : "");

export async function applyCommand(io: CliIo, name: string, flags: ApplyFlags = {}): Promise<number> {
  const { handle, record, worktree } = worktreeOf(name, io.env);
  if (turnRunning(handle, io.env)) {
    throw new ScvError(
      "CONVERSATION_BUSY",
      `a turn of ${handle} is running in its worktree — wait for it (scv wait ${handle}, or scv ps), then apply`,
    );
  }
  const subject = `${handle}: ${preview(record.lastPrompt ?? "changes", 60)}`;
  const outcome = await applyWorktree(worktree, {
    env: io.env,
    ...(flags.cwd === undefined ? {} : { into: resolve(io.cwd, flags.cwd) }),
    ...(flags.keepConflicts ? { keepConflicts: true } : {}),
    ...(flags.commit
      ? {
          commit: {
            message: `${subject}\n\nApplied by scv from ${worktree.branch} (conversation ${handle}, agent ${record.agent}).\n`,
            agent: record.agent,
          },
        }
      : {}),
  });
  const into = flags.cwd === undefined ? worktree.repoRoot : resolve(io.cwd, flags.cwd);
  switch (outcome.kind) {
    case "nothing":
      io.stderr.write(`scv: ${worktree.branch} holds no change against its base — nothing to apply\n`);
      return EXIT.ok;
    case "conflicts":
      // Refused (exit 2, as over the user's changes) when nothing was written; with
      // --keep-conflicts the markers are there and the apply is half done (exit 1).
      io.stderr.write(
        outcome.kept
          ? `scv: ${worktree.branch} conflicts with ${into} in ${listed(outcome.paths)} — git's conflict markers are in those files: resolve them, then git add\n`
          : `scv: ${worktree.branch} conflicts with ${into} in ${listed(outcome.paths)} — nothing was written; see it with scv diff ${handle}, or apply with --keep-conflicts for git's conflict markers\n`,
      );
      return outcome.kept ? EXIT.agentFailed : EXIT.usage;
    case "applied": {
      // gc counts an applied branch as kept work.
      const latest = readConversation(handle, io.env);
      writeConversation({ ...latest, worktree: { ...worktree, applied: outcome.tip } }, io.env);
      const count = `${outcome.paths.length} ${outcome.paths.length === 1 ? "file" : "files"}`;
      io.stderr.write(
        outcome.commit === null
          ? `scv: applied ${worktree.branch} to ${into}: ${count} (${listed(outcome.paths)}), uncommitted — git diff shows them\n`
          : `scv: applied ${worktree.branch} to ${into} as commit ${outcome.commit.slice(0, 12)}: ${count} (${listed(outcome.paths)})\n`,
      );
      return EXIT.ok;
    }
    default:
      return unreachable(outcome);
  }
}
