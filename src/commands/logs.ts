// `scv logs [-f] <job|handle>`: a job's events, as the foreground shows them off a terminal (tool
// starts and ends, retries, errors, then the summary line), or with `--events` as the NDJSON of
// `scv delegate --events`. With `-f` it follows the job until it ends, then prints its result; for a
// background turn, an MCP job and another terminal's foreground turn alike (jobs/follow.ts). Ctrl-C
// ends the following, never the job; nothing is taken from the job (`scv wait` still has its result).

import { withInterrupts } from "../cli/interrupts.js";
import {
  droppedLine,
  errorLine,
  printable,
  retryLine,
  summaryLine,
  toolEndLine,
  toolLine,
} from "../cli/progress.js";
import { jsonLine, visibleLine } from "../cli/terminal-text.js";
import { EXIT } from "../errors.js";
import type { DroppedLine, EventLine } from "../events.js";
import type { CliIo } from "../io.js";
import { followJob, jobToFollow } from "../jobs/follow.js";
import { failureLine } from "../turn/outcome.js";
import { stopExitCode } from "../turn/stops.js";

export interface LogsOptions {
  readonly follow?: boolean;
  readonly events?: boolean;
}

export async function logsCommand(io: CliIo, ref: string, options: LogsOptions = {}): Promise<number> {
  const job = jobToFollow(ref, io.env);
  const show = options.events ? (line: EventLine) => io.stdout.write(`${jsonLine(line)}\n`) : textLines(io);
  // `--events` has no line for events a busy stretch left out; the text says how many.
  const onDropped = options.events
    ? undefined
    : (line: DroppedLine) => io.stdout.write(`${droppedLine(line.agent, line.count)}\n`);
  let interrupted: AbortSignal | undefined;
  const end = await withInterrupts(
    io,
    (signal) => {
      interrupted = signal;
      return followJob(job, io.env, { follow: options.follow === true, signal, onLine: show, onDropped });
    },
    null,
  );
  switch (end.kind) {
    case "result": {
      show(end.line);
      return end.line.result.exitCode;
    }
    case "running":
      io.stderr.write(`scv: ${job} is still running — follow it: scv logs -f ${job}\n`);
      return EXIT.ok;
    case "gone":
      io.stderr.write(
        `scv: ${job} has ended; its result went to the scv that ran it in the foreground, or to scv wait\n`,
      );
      return EXIT.ok;
    case "stopped":
      return stopExitCode(interrupted);
  }
}

/** The lines a turn's progress shows off a terminal, made from each event and its time; the result
 * as the summary line, its failure and notes. */
function textLines(io: CliIo): (line: EventLine) => void {
  /** Tools started and not yet ended, for the line of their end. */
  const open = new Map<string, string>();
  const write = (text: string) => io.stdout.write(`${text}\n`);
  return (line) => {
    switch (line.type) {
      case "tool-start":
        open.set(line.id, line.summary || line.name);
        write(toolLine(line.agent, line.t, line.summary || line.name));
        return;
      case "tool-end":
        write(toolEndLine(line.agent, line.t, open.get(line.id) ?? line.name, line.ok));
        open.delete(line.id);
        return;
      case "retry":
        write(retryLine(line.agent, line.t, line));
        return;
      case "error":
        // A terminal one is the result's failure line.
        if (!line.terminal) write(errorLine(line.agent, line.t, line.message));
        return;
      case "result": {
        write(printable(summaryLine(line.result)));
        const failure = failureLine(line.result);
        if (failure !== undefined) write(`scv: ${visibleLine(failure)}`);
        for (const note of line.result.notes) write(`scv: note: ${visibleLine(note)}`);
        return;
      }
      default:
        return;
    }
  };
}
