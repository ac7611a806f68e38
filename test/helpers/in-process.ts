// `scv <args>` run in the test's own process through `run(argv, io)` (src/cli/main.ts), for what a
// command decides and prints: the same program as the built scv's, without a Node start-up per call.
// What only the built executable does — its launcher and code cache, exit hooks, signals, a lost
// terminal — is tested through dist/scv.js (test/helpers/scv.ts).

import { PassThrough } from "node:stream";
import { useConfiguredAgents } from "../../src/adapters.js";
import { run } from "../../src/cli/main.js";
import type { CliIo } from "../../src/io.js";

export interface InProcessRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface InProcessOptions {
  readonly cwd?: string;
  /** What stdin carries; empty by default. */
  readonly input?: string;
}

/** Runs scv with `args` in `env` (its whole environment, as a child would get it). */
export async function runScv(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  options: InProcessOptions = {},
): Promise<InProcessRun> {
  const stdout = collect();
  const stderr = collect();
  const stdin = new PassThrough();
  stdin.end(options.input ?? "");
  const io: CliIo = {
    stdout: stdout.stream,
    stderr: stderr.stream,
    stdin,
    env: { ...env },
    cwd: options.cwd ?? env.HOME ?? "/",
    exitCode: 0,
  };
  try {
    const code = await run(args, io);
    return { code, stdout: await stdout.text(), stderr: await stderr.text() };
  } finally {
    // The config's agents of this run are not the next one's (a thread runs many test files).
    useConfiguredAgents(() => []);
  }
}

/** A stream and, once it is ended, all that was written to it. */
function collect(): { stream: PassThrough; text: () => Promise<string> } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve) => stream.on("end", resolve));
  return {
    stream,
    text: async () => {
      stream.end();
      await ended;
      return Buffer.concat(chunks).toString("utf8");
    },
  };
}
