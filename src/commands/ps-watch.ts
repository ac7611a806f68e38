// `scv ps --watch` and `scv top`: `scv ps`'s table redrawn in place on a terminal until q or Ctrl-C
// (cli/live-screen.ts), or, when stdout is not a terminal, a snapshot every interval, each after a
// line with its time, until scv is stopped.

import { withInterrupts } from "../cli/interrupts.js";
import { liveScreen } from "../cli/live-screen.js";
import { durationOption, formatDuration } from "../duration.js";
import { EXIT, ScvError } from "../errors.js";
import type { CliIo } from "../io.js";
import { isoTimestamp } from "../timestamp.js";
import { stopExitCode } from "../turn/stops.js";
import { type PsOptions, psSnapshot, psTable } from "./ps.js";

const DEFAULT_INTERVAL_MS = 1_000;

export async function watchPs(io: CliIo, options: PsOptions): Promise<number> {
  if (options.json)
    throw new ScvError(
      "USAGE",
      "--json prints one snapshot — drop --watch (run scv ps --json again to look again)",
    );
  const intervalMs = durationOption("--interval", options.interval) ?? DEFAULT_INTERVAL_MS;
  const every = formatDuration(intervalMs);
  return withInterrupts(
    io,
    async (signal) => {
      if (io.stdout.isTTY === true) {
        await liveScreen(io, {
          intervalMs,
          signal,
          frame: () => {
            const table = psTable(psSnapshot(io.env));
            const time = new Date().toTimeString().slice(0, 8);
            return [
              `scv ps · ${time} · every ${every} · q quits`,
              "",
              ...(table ?? "no running turns\n").split("\n"),
            ];
          },
        });
        return signal.aborted ? stopExitCode(signal) : EXIT.ok;
      }
      while (!signal.aborted) {
        const table = psTable(psSnapshot(io.env));
        io.stdout.write(`--- ${isoTimestamp()}\n${table ?? "no running turns\n"}\n`);
        await sleep(intervalMs, signal);
      }
      return stopExitCode(signal);
    },
    null,
  );
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
