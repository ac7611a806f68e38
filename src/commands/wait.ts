// `scv wait <handle>…`: prints background turns' results as the foreground would have, once every
// one has ended; a result goes once printed.

import type { CliIo } from "../cli/io.js";
import { print, printSection, reportFailures } from "../cli/results.js";
import { jsonLine } from "../cli/terminal-text.js";
import { durationOption } from "../duration.js";
import { EXIT } from "../errors.js";
import { consumeResult } from "../home/turn-records.js";
import { waitForResults } from "../jobs/wait.js";

export interface WaitOptions {
  readonly timeout?: string;
  readonly json?: boolean;
  readonly quiet?: boolean;
}

export async function waitCommand(
  io: CliIo,
  handles: readonly string[],
  options: WaitOptions = {},
): Promise<number> {
  const timeoutMs = durationOption("--timeout", options.timeout);
  const wanted = [...new Set(handles)];
  const ordered = await waitForResults(wanted, io.env, timeoutMs);
  if (ordered.length === 1 && ordered[0] !== undefined) {
    print(io, ordered[0], { json: options.json, quiet: options.quiet });
  } else if (options.json) {
    io.stdout.write(`${jsonLine(ordered)}\n`);
  } else {
    for (const [index, result] of ordered.entries()) printSection(io, undefined, result, index);
    reportFailures(io, [], ordered);
  }
  // Read: the results go (a result that cannot be printed is not lost: it stays on a failed write).
  for (const handle of wanted) consumeResult(handle, io.env);
  return ordered.find((result) => result.exitCode !== EXIT.ok)?.exitCode ?? EXIT.ok;
}
