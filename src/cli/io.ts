// The one place scv's own process becomes a command's outside world (src/io.ts): its streams,
// `process.env` and the current directory, read here once and passed down from the entry points.

import { HANGUP, OUTPUT_CLOSED, ScvError } from "../errors.js";
import type { CliIo } from "../io.js";

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
