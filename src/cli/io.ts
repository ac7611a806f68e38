// What a command may touch of the outside world, passed in so tests can run commands in-process.

import type { Readable, Writable } from "node:stream";

export interface CliIo {
  readonly stdout: Writable & { isTTY?: boolean };
  readonly stderr: Writable & { isTTY?: boolean; columns?: number };
  readonly stdin: Readable & { isTTY?: boolean };
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Set by the command that ran. */
  exitCode: number;
}

export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    exitCode: 0,
  };
}
