// The one place scv calls spawn: every process it starts — an agent's turn, an ACP server, a
// probe, a sign-in, git, `npm install`, a detached scv — comes through here, from the runners beside
// it (run.ts, helpers.ts). node:child_process rather than execa: see docs/dependencies.md.

import { type ChildProcess, type StdioOptions, spawn } from "node:child_process";

export interface SpawnRequest {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  /** The complete environment (nothing is added; an undefined value is left out). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdio: StdioOptions;
  /** A session and process group of its own, so that ending the group ends all it started. */
  readonly detached: boolean;
}

export interface SpawnError {
  readonly code?: string;
  readonly message: string;
}

export interface Spawned {
  /** Undefined when spawn refused the request itself. */
  readonly child: ChildProcess | undefined;
  /** Also its process group's id when detached; undefined when it did not start. */
  readonly pid: number | undefined;
  /** Resolves once it has exited (the 'exit' event, not 'close': a grandchild may hold its pipes
   * open), or failed to start. Listened for at once, so an early exit is never missed. */
  readonly exited: Promise<void>;
  /** Why it did not start (`ENOENT`, `EACCES`, …), once `exited` has resolved. */
  spawnError(): SpawnError | undefined;
  /** After the exit: waits for its stdout and stderr to close, at most `ms` (a process that left its
   * group may hold them), then closes them, and its stdin. */
  drain(ms: number): Promise<void>;
}

export function spawnProcess(request: SpawnRequest): Spawned {
  let child: ChildProcess;
  try {
    child = spawn(request.file, [...request.args], {
      cwd: request.cwd,
      // Node reads it, never changes it: no copy needed.
      env: request.env as NodeJS.ProcessEnv,
      stdio: request.stdio,
      detached: request.detached,
    });
  } catch (error) {
    // spawn throws synchronously for arguments it cannot pass (a NUL byte, an invalid cwd type).
    const failure = error as NodeJS.ErrnoException;
    const refused = { code: failure.code, message: failure.message };
    return {
      child: undefined,
      pid: undefined,
      exited: Promise.resolve(),
      spawnError: () => refused,
      drain: async () => {},
    };
  }
  const pid = child.pid;
  let startError: SpawnError | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.on("error", (error: NodeJS.ErrnoException) => {
      // A failed spawn has no pid; an error after a start (a failed kill) changes nothing about how
      // the process ends.
      if (pid === undefined) {
        startError = { code: error.code, message: error.message };
        resolve();
      }
    });
  });
  // Both pipes have ended (or failed): everything it wrote has been handed on.
  let pipesClosed = false;
  const drained = Promise.all(
    [child.stdout, child.stderr].map(
      (stream) =>
        new Promise<void>((resolve) => {
          if (stream === null || stream.destroyed) return resolve();
          stream.once("close", () => resolve());
        }),
    ),
  ).then(() => {
    pipesClosed = true;
  });
  return {
    child,
    pid,
    exited,
    spawnError: () => startError,
    async drain(ms) {
      // Pipes usually close with the process: what it wrote last is read within a turn or two of
      // the event loop. Only pipes still open after that are waited for under a time limit, whose
      // timer would otherwise be the turn's first (Node sets its timers up on the first).
      for (let turn = 0; turn < 2 && !pipesClosed; turn += 1) await new Promise(setImmediate);
      if (!pipesClosed && !(await settleWithin(drained, ms))) {
        child.stdout?.destroy();
        child.stderr?.destroy();
        await drained;
      }
      // A payload nobody read (a process outside the group holding the pipe) is dropped.
      child.stdin?.destroy();
    },
  };
}

async function settleWithin(promise: PromiseLike<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const result = await Promise.race([Promise.resolve(promise).then(() => true), timeout]);
  clearTimeout(timer);
  return result;
}
