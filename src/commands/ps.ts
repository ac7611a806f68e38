// `scv ps`: the turns running now, foreground and background, with the tool each is running.

import type { CliIo } from "../cli/io.js";
import { jsonLine } from "../cli/terminal-text.js";
import { formatDuration } from "../duration.js";
import { EXIT } from "../errors.js";
import { runningTurns } from "../jobs/list.js";
import { renderTable } from "./table.js";

export async function psCommand(io: CliIo, options: { json?: boolean } = {}): Promise<number> {
  const turns = runningTurns(io.env);
  if (options.json) {
    io.stdout.write(`${jsonLine(turns)}\n`);
    return EXIT.ok;
  }
  if (turns.length === 0) {
    io.stderr.write("no running turns\n");
    return EXIT.ok;
  }
  io.stdout.write(
    renderTable(
      // A job begins with its conversation's handle.
      ["JOB", "AGENT", "PID", "ELAPSED", "TOOL"],
      turns.map((turn) => [
        turn.job,
        turn.agent,
        turn.pid === null ? "-" : String(turn.pid),
        formatDuration(turn.elapsedMs),
        turn.tool ?? "",
      ]),
    ),
  );
  return EXIT.ok;
}
