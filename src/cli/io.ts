// What a command may touch of the outside world, passed in so tests can run commands in-process.

import type { Readable, Writable } from "node:stream";
import { HANGUP, OUTPUT_CLOSED, ScvError } from "../errors.js";

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

export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // A getter: creating process.stdin opens a stream on it (a ReadStream on /dev/null, a socket
    // on a pipe) that only `-` prompts and `--with-api-key` read.
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    // A getter too: only commands that use it fail when it is gone (`scv --version` still answers).
    get cwd() {
      return currentDirectory();
    },
    outputClosed: watchOutput(process.stdout),
    exitCode: 0,
  };
}

/** Where scv was started; a folder deleted under the shell has none, and every command says so. */
function currentDirectory(): string {
  try {
    return process.cwd();
  } catch {
    throw new ScvError(
      "USAGE",
      "the current directory no longer exists — cd into an existing folder and run scv again",
    );
  }
}

/** Without a listener, a write to a closed pipe (`scv … | head -1`) throws an unhandled 'error'
 * event: a stack trace instead of a quiet end. A closed stderr (`2>&1 | head -1`, `2>/dev/full`)
 * only loses progress and messages: the turn goes on, its reply still reaches stdout and its
 * conversation is recorded. */
function watchOutput(stdout: NodeJS.WriteStream): AbortSignal {
  const controller = new AbortController();
  stdout.on("error", (error: NodeJS.ErrnoException) =>
    controller.abort(error.code === "EIO" ? HANGUP : OUTPUT_CLOSED),
  );
  process.stderr.on("error", () => {});
  return controller.signal;
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
