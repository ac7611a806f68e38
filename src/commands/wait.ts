// `scv wait <job|handle>…`: prints background turns' results as the foreground would have, once every
// one has ended; a result goes once printed, and only that one.

import { print, printSection, reportFailures } from "../cli/results.js";
import { jsonLine, visibleLine } from "../cli/terminal-text.js";
import { durationOption } from "../duration.js";
import { EXIT } from "../errors.js";
import { questionText } from "../home/approvals.js";
import { consumeResult } from "../home/turn-records.js";
import type { CliIo } from "../io.js";
import { jobsToWaitFor, waitForResults } from "../jobs/wait-for-jobs.js";
import { turnResultJson } from "../json-shapes.js";

export interface WaitOptions {
  readonly timeout?: string;
  readonly json?: boolean;
  readonly quiet?: boolean;
}

export async function waitCommand(
  io: CliIo,
  refs: readonly string[],
  options: WaitOptions = {},
): Promise<number> {
  const timeoutMs = durationOption("--timeout", options.timeout);
  const jobs = jobsToWaitFor(refs, io.env);
  const ordered = await waitForResults(jobs, io.env, timeoutMs, (job, approval) => {
    io.stderr.write(
      `scv: ${job} waits for approval ${approval.id}: ${visibleLine(questionText(approval))} — answer it with the approve tool of the scv mcp that started it, or stop it: scv kill ${job}\n`,
    );
  });
  if (ordered.length === 1 && ordered[0] !== undefined) {
    print(io, ordered[0], { json: options.json, quiet: options.quiet });
  } else if (options.json) {
    io.stdout.write(`${jsonLine(ordered.map(turnResultJson))}\n`);
  } else {
    for (const [index, result] of ordered.entries()) printSection(io, undefined, result, index);
    reportFailures(io, [], ordered);
  }
  // Read: these results go (a result that cannot be printed is not lost: it stays on a failed write).
  for (const job of jobs) consumeResult(job, io.env);
  return ordered.find((result) => result.exitCode !== EXIT.ok)?.exitCode ?? EXIT.ok;
}
