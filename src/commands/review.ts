// `scv review [<target>…] [--base <ref> | --staged | --commit <sha> | --job <job|handle>]`: the diff
// scv computes with git, reviewed by each target (`codex`, `claude:opus/high`, `gemini@work`; none
// named: the config's `review_by`, else `--reviewers auto`) in turns of their own, read-only, held to
// the findings' schema; one merged report on stdout in the form asked, progress on stderr, and the
// exit code a CI job gates on (0 approved or commented, 1 changes requested, else a failed turn's).

import { resolve } from "node:path";
import { parseAgentSpec } from "../agent-spec.js";
import { requireAgent } from "../agents.js";
import { withInterrupts } from "../cli/interrupts.js";
import type { CliIo } from "../cli/io.js";
import { summaryLine } from "../cli/progress.js";
import { printReport, REVIEW_FORMATS, type ReviewFormat } from "../cli/review-output.js";
import { visibleLine } from "../cli/terminal-text.js";
import { loadConfig } from "../config.js";
import { durationOption } from "../duration.js";
import { EXIT, ScvError } from "../errors.js";
import { jobChanges } from "../jobs/job-changes.js";
import { type ReviewTurnEvent, reviewWithTurns } from "../jobs/review.js";
import { pickReviewers, splitTargets } from "../jobs/reviewers.js";
import { computeDiff, describeScope, type ReviewScope } from "../review/diff.js";
import type { TurnRequest } from "../turn/types.js";

export interface ReviewOptions {
  readonly base?: string;
  readonly staged?: boolean;
  readonly commit?: string;
  readonly job?: string;
  readonly focus?: string;
  readonly reviewers?: string;
  readonly author?: string;
  readonly cwd?: string;
  readonly json?: boolean;
  readonly format?: string;
  readonly timeout?: string;
  readonly idleTimeout?: string;
  readonly quiet?: boolean;
  readonly background?: boolean;
}

/** What is reviewed, as the flags say; at most one of them. */
export function reviewScope(
  options: ReviewOptions,
): ReviewScope | { readonly kind: "job-ref"; readonly ref: string } {
  const given = [
    options.base === undefined ? undefined : "--base",
    options.staged === true ? "--staged" : undefined,
    options.commit === undefined ? undefined : "--commit",
    options.job === undefined ? undefined : "--job",
  ].filter((flag) => flag !== undefined);
  if (given.length > 1) {
    throw new ScvError("USAGE", `${given.join(" and ")} each say what to review — give one of them`);
  }
  if (options.base !== undefined) return { kind: "base", ref: options.base };
  if (options.staged === true) return { kind: "staged" };
  if (options.commit !== undefined) return { kind: "commit", ref: options.commit };
  if (options.job !== undefined) return { kind: "job-ref", ref: options.job };
  return { kind: "changes" };
}

/** `--json` or `--format`: one form for stdout. */
export function reviewFormat(options: Pick<ReviewOptions, "json" | "format">): ReviewFormat {
  const format = options.format ?? (options.json ? "json" : "text");
  if (!(REVIEW_FORMATS as readonly string[]).includes(format)) {
    throw new ScvError(
      "USAGE",
      `--format '${format}' is not one scv prints — give ${REVIEW_FORMATS.join(", ")}`,
    );
  }
  if (options.json === true && format !== "json") {
    throw new ScvError(
      "USAGE",
      `--json and --format ${format} both choose what stdout carries — pass one of them`,
    );
  }
  return format as ReviewFormat;
}

export async function reviewCommand(
  io: CliIo,
  targets: readonly string[],
  options: ReviewOptions = {},
): Promise<number> {
  const format = reviewFormat(options);
  const asked = reviewScope(options);
  const loaded = loadConfig(io.env);
  const config = loaded.config;
  const timeoutMs = durationOption("--timeout", options.timeout);
  const idleTimeoutMs = durationOption("--idle-timeout", options.idleTimeout);
  const job = asked.kind === "job-ref" ? await jobChanges(asked.ref, io.env) : undefined;
  if (options.background && format !== "text" && format !== "json") {
    throw new ScvError(
      "USAGE",
      `--format ${format} prints a finished review — drop --background, or drop --format and read the review with scv wait`,
    );
  }
  const scope = job?.scope ?? (asked as ReviewScope);
  const cwd = job?.cwd ?? resolve(io.cwd, options.cwd ?? ".");
  const author = options.author === undefined ? job?.author : authorOf(options.author);
  const given = [...targets, ...(options.reviewers === undefined ? [] : splitTargets(options.reviewers))];
  const pick = await pickReviewers({
    given,
    ...(author === undefined ? {} : { author }),
    config,
    env: io.env,
    configPath: loaded.path,
  });
  if (options.background) {
    // The job is the first reviewer's first conversation; the detached scv computes the diff.
    const first = parseAgentSpec(pick.reviewers[0] ?? "");
    const request: TurnRequest = {
      agent: first.agent,
      ...(first.model === undefined ? {} : { model: first.model }),
      ...(first.effort === undefined ? {} : { effort: first.effort }),
      ...(first.accounts === undefined ? {} : { accounts: first.accounts }),
      prompt: `scv review: ${describeScope(scope)}`,
      cwd,
      review: true,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(idleTimeoutMs === undefined ? {} : { idleTimeoutMs }),
    };
    const { startBackgroundTurns } = await import("./background.js");
    return startBackgroundTurns(
      io,
      [request],
      config,
      { json: format === "json", quiet: options.quiet },
      {
        kind: "review",
        reviewers: [...pick.reviewers],
        ...(options.focus === undefined ? {} : { focus: options.focus }),
        scope: asked.kind === "job-ref" ? { kind: "job", ref: asked.ref } : askedScope(asked),
      },
    );
  }
  const say = (line: string) => {
    if (!options.quiet) io.stderr.write(`${line}\n`);
  };
  const diff = await computeDiff(scope, { cwd, env: io.env });
  say(
    `scv review: ${diff.description} — ${diff.files.length} ${diff.files.length === 1 ? "file" : "files"}, reviewers ${pick.reviewers.join(", ")}${pick.source === "auto" ? " (auto)" : ""}`,
  );
  const report = await withInterrupts(
    io,
    (signal) =>
      reviewWithTurns({
        diff,
        reviewers: pick.reviewers,
        ...(options.focus === undefined ? {} : { focus: options.focus }),
        ...(config.review_part_bytes === undefined ? {} : { maxPartBytes: config.review_part_bytes }),
        turn: {
          ...(timeoutMs === undefined ? {} : { timeoutMs }),
          ...(idleTimeoutMs === undefined ? {} : { idleTimeoutMs }),
        },
        context: {
          env: io.env,
          cwd: io.cwd,
          config,
          signal,
          lockWaitMs: durationOption("SCV_LOCK_WAIT", io.env.SCV_LOCK_WAIT, { allowZero: true }),
          onNotice: (line) => say(`scv: ${line}`),
        },
        onTurn: (event) => say(turnLine(event)),
      }),
    "the reviewers",
  );
  printReport(io, report, format);
  return report.exitCode;
}

/** The scope a background review's job carries (the runner computes its diff). */
function askedScope(scope: ReviewScope): { kind: "changes" | "base" | "staged" | "commit"; ref?: string } {
  switch (scope.kind) {
    case "base":
    case "commit":
      return { kind: scope.kind, ref: scope.ref };
    case "staged":
      return { kind: "staged" };
    default:
      return { kind: "changes" };
  }
}

/** `--author <agent>[:model]`: whose family `auto` keeps out. */
function authorOf(text: string): { agent: string; model?: string } {
  const spec = parseAgentSpec(text);
  requireAgent(spec.agent);
  return { agent: spec.agent, ...(spec.model === undefined ? {} : { model: spec.model }) };
}

/** `[codex 1/2] started`, `[codex 1/2, repair] codex completed 12s · …`. */
export function turnLine(event: ReviewTurnEvent): string {
  const { turn } = event;
  const tag = `[${turn.reviewer}${turn.parts > 1 ? ` ${turn.part}/${turn.parts}` : ""}${turn.repair ? ", repair" : ""}]`;
  if (event.kind === "start") return `${tag} started`;
  const handle = event.result.conversation === null ? "" : ` (${event.result.conversation})`;
  const failure = event.result.exitCode === EXIT.ok ? "" : `: ${visibleLine(event.result.error ?? "failed")}`;
  return `${tag} ${summaryLine(event.result)}${handle}${failure}`;
}
