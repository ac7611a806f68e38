// `scv review [<target>…] [--base <ref> | --staged | --commit <sha> | --job <job|handle>]`: the diff
// scv computes with git, reviewed by each target (`<agent>`, `<agent>:<model>/high`, `<agent>@work`; none
// named: the config's `review_by`, else `--reviewers auto`) in turns of their own, read-only, held to
// the findings' schema; one merged report on stdout in the form asked, progress on stderr, and the
// exit code a CI job gates on (0 approved or commented, 1 changes requested, else a failed turn's).

import { withInterrupts } from "../cli/interrupts.js";
import { summaryLine } from "../cli/progress.js";
import { printReport, REVIEW_FORMATS, type ReviewFormat } from "../cli/review-report.js";
import { visibleLine } from "../cli/terminal-text.js";
import { durationOption } from "../duration.js";
import { EXIT, ScvError } from "../errors.js";
import { loadConfig } from "../home/config.js";
import type { CliIo } from "../io.js";
import { planReview, type ReviewAsk, reviewJob } from "../jobs/review-plan.js";
import { type ReviewTurnEvent, reviewWithTurns } from "../jobs/review-with-turns.js";
import { splitTargets } from "../jobs/reviewers.js";
import { computeDiff } from "../review/diff.js";

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
  const loaded = loadConfig(io.env);
  const config = loaded.config;
  const timeoutMs = durationOption("--timeout", options.timeout);
  const idleTimeoutMs = durationOption("--idle-timeout", options.idleTimeout);
  if (options.background && format !== "text" && format !== "json") {
    throw new ScvError(
      "USAGE",
      `--format ${format} prints a finished review — drop --background, or drop --format and read the review with scv wait`,
    );
  }
  const asked: ReviewAsk = {
    ...options,
    reviewers: [...targets, ...(options.reviewers === undefined ? [] : splitTargets(options.reviewers))],
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(idleTimeoutMs === undefined ? {} : { idleTimeoutMs }),
  };
  const plan = await planReview(asked, { env: io.env, cwd: io.cwd, config, configPath: loaded.path });
  const { scope, cwd, pick } = plan;
  if (options.background) {
    const { request, review } = reviewJob(plan, asked);
    const { startBackgroundTurns } = await import("./background.js");
    return startBackgroundTurns(
      io,
      [request],
      config,
      { json: format === "json", quiet: options.quiet },
      { review },
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

/** `[<agent> 1/2] started`, `[<agent> 1/2, repair] <agent> completed 12s · …`. */
export function turnLine(event: ReviewTurnEvent): string {
  const { turn } = event;
  const tag = `[${turn.reviewer}${turn.parts > 1 ? ` ${turn.part}/${turn.parts}` : ""}${turn.repair ? ", repair" : ""}]`;
  if (event.kind === "start") return `${tag} started`;
  const handle = event.result.conversation === null ? "" : ` (${event.result.conversation})`;
  const failure = event.result.exitCode === EXIT.ok ? "" : `: ${visibleLine(event.result.error ?? "failed")}`;
  return `${tag} ${summaryLine(event.result)}${handle}${failure}`;
}
