// What a command may touch of the outside world, passed in so tests can run commands in-process.

import type { Readable, Writable } from "node:stream";

export interface CliIo {
  readonly stdout: Writable & { isTTY?: boolean };
  readonly stderr: Writable & { isTTY?: boolean; columns?: number };
  readonly stdin: Readable & { isTTY?: boolean };
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Aborts once stdout cannot be written any more (its reader went away: EPIPE). */
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
    cwd: process.cwd(),
    outputClosed: watchOutput(process.stdout),
    exitCode: 0,
  };
}

/** Without a listener, a write to a closed pipe (`scv … | head -1`) throws an unhandled 'error'
 * event: a stack trace instead of a quiet end. */
function watchOutput(stdout: NodeJS.WriteStream): AbortSignal {
  const controller = new AbortController();
  stdout.on("error", () => controller.abort());
  return controller.signal;
}
