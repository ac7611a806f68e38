// What a command may touch of the outside world — its streams, the environment, the directory it
// started in — made once where scv starts (cli/io.ts `processIo`) and passed down, so tests run
// commands in-process and nothing below reads `process.env` itself.

import type { Readable, Writable } from "node:stream";

export interface CliIo {
  readonly stdout: Writable & { isTTY?: boolean };
  readonly stderr: Writable & { isTTY?: boolean; columns?: number };
  readonly stdin: Readable & { isTTY?: boolean };
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Aborts once stdout cannot be written any more: with OUTPUT_CLOSED when its reader went away
   * (EPIPE), with "SIGHUP" when it was a terminal that closed (EIO). */
  readonly outputClosed?: AbortSignal;
  /** Set by the command that ran. */
  exitCode: number;
}

/** Resolves once everything written to `stream` so far has been handed to the OS (or it failed). */
export function flushed(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) return resolve();
    stream.write("", () => resolve());
  });
}

/** Whether all a command wrote to stdout reached a reader: false once its reader went away (a
 * closed pipe), which a write may only reveal at the end, when the reply is printed. */
export async function stdoutDelivered(io: CliIo): Promise<boolean> {
  await flushed(io.stdout);
  return !io.outputClosed?.aborted && (io.stdout.errored ?? null) === null;
}
