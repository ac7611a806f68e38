// One agent CLI as a process: spawned in its own process group with stdin closed (or given its
// prompt, then closed), its stdout handed on chunk by chunk (turn.ts frames it into lines for the
// parser), a bounded tail of its stderr kept for messages, and the whole group ended on a time
// limit, an idle limit or a cancellation: SIGTERM, then SIGKILL after a grace period. The first
// termination reason wins.

// node:child_process rather than execa: this is the one spawn on every turn's path, and loading
// execa (with its dependencies) was the largest single cost of a turn's start-up, for options scv
// does not use here (docs/benchmarks.md). execa still runs the sign-in commands.
import { type ChildProcess, spawn } from "node:child_process";
import type { Writable } from "node:stream";
import { groupAlive, signalGroup, trackGroup, untrackGroup } from "../os/groups.js";

/** Why scv ended a process itself. */
export type Termination = "timeout" | "idle-timeout" | "cancelled";

export interface ProcessOptions {
  /** The executable (an absolute path, as resolved by `locateAgent`). */
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The complete environment; nothing of scv's own is added. */
  readonly env: Readonly<Record<string, string>>;
  /** Written to stdin, which is then closed; without it stdin is /dev/null. */
  readonly stdin?: string;
  /** Keeps stdin an open pipe for the caller to write (`AgentProcess.input`): an ACP agent reads
   * JSON-RPC there for as long as it runs. `stdin` is then not written. */
  readonly openStdin?: boolean;
  /** Whole-process limit. */
  readonly timeoutMs?: number;
  /** Limit on time without any output (stdout or stderr). */
  readonly idleTimeoutMs?: number;
  /** Between SIGTERM and SIGKILL. */
  readonly graceMs?: number;
  /** Bytes of stderr kept (the last ones). */
  readonly stderrTailBytes?: number;
  readonly onStdout: (chunk: Buffer) => void;
  readonly onStderr?: (chunk: Buffer) => void;
  /** Aborting it ends the process group with termination "cancelled". */
  readonly signal?: AbortSignal;
}

export interface ProcessExit {
  /** Exit code, or null when the process ended by a signal or never started. */
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** The last `stderrTailBytes` of stderr, decoded. */
  readonly stderrTail: string;
  /** Set when scv ended the process; the first reason wins. */
  readonly termination?: Termination;
  readonly durationMs: number;
  readonly pid?: number;
  /** Set when the executable could not be started (`ENOENT`, `EACCES`, …). */
  readonly spawnError?: { readonly code?: string; readonly message: string };
}

export interface AgentProcess {
  /** Also the process group id; undefined when it could not be started. */
  readonly pid: number | undefined;
  /** Ends the whole process group; a later call keeps the first reason. */
  terminate(reason: Termination): void;
  /** Whether scv has begun ending it (`terminate` was called, by a timer, an abort or the caller). */
  readonly stopping: boolean;
  /** Resolves once the process has exited, its group is gone and stdout is drained. */
  readonly done: Promise<ProcessExit>;
  /** Its stdin, with `openStdin`; errors on it (EPIPE from an agent that died) are swallowed. */
  readonly input?: Writable;
}

export const DEFAULT_GRACE_MS = 3_000;
export const DEFAULT_STDERR_TAIL_BYTES = 16 * 1024;
/** How often a group is polled while waiting for it to go after SIGTERM. */
const GROUP_POLL_MS = 25;

export function startProcess(options: ProcessOptions): AgentProcess {
  const started = Date.now();
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const tail = new TailBuffer(options.stderrTailBytes ?? DEFAULT_STDERR_TAIL_BYTES);

  if (options.signal?.aborted) return notStarted({ termination: "cancelled", durationMs: 0 });

  let spawnError: { code?: string; message: string } | undefined;
  let subprocess: ChildProcess;
  try {
    subprocess = spawn(options.file, [...options.args], {
      cwd: options.cwd,
      // Node reads it, never changes it: no copy needed.
      env: options.env as NodeJS.ProcessEnv,
      // A CLI may wait forever on an open stdin pipe, even with a prompt argument (lab): a pipe only
      // for a payload, closed once it is written.
      stdio: [options.stdin === undefined && !options.openStdin ? "ignore" : "pipe", "pipe", "pipe"],
      // Its own process group, so the agent's tools and MCP servers can be ended with it.
      detached: true,
    });
  } catch (error) {
    // spawn throws synchronously for arguments it cannot pass (a NUL byte, an invalid cwd type).
    const failure = error as NodeJS.ErrnoException;
    return notStarted({
      durationMs: Date.now() - started,
      spawnError: { code: failure.code, message: failure.message },
    });
  }
  const pid = subprocess.pid;
  if (options.openStdin) subprocess.stdin?.on("error", () => {});
  else if (options.stdin !== undefined && subprocess.stdin !== null) {
    // Written as the pipe drains while stdout is read, so a prompt of megabytes cannot deadlock
    // against an agent that writes before it reads. An agent that exits (or fails to start) without
    // reading it breaks the pipe: EPIPE changes nothing about how the turn ends.
    subprocess.stdin.on("error", () => {});
    subprocess.stdin.end(options.stdin);
  }

  // Listen for the exit before reading anything, so an early exit is never missed. The 'exit'
  // event (not 'close') marks the end: a grandchild may hold stdout open after the agent itself
  // has exited.
  const exited = new Promise<void>((resolve) => {
    subprocess.once("exit", () => resolve());
    subprocess.once("error", (error: NodeJS.ErrnoException) => {
      // A failed spawn ('ENOENT', 'EACCES') has no pid; an error after a start (a failed kill)
      // changes nothing about how the process ends.
      if (pid === undefined) {
        spawnError = { code: error.code, message: error.message };
        resolve();
      }
    });
  });
  // Both pipes have ended (or failed): everything the agent wrote has been handed on.
  let pipesClosed = false;
  const drained = Promise.all(
    [subprocess.stdout, subprocess.stderr].map(
      (stream) =>
        new Promise<void>((resolve) => {
          if (stream === null || stream.destroyed) return resolve();
          stream.once("close", () => resolve());
        }),
    ),
  ).then(() => {
    pipesClosed = true;
  });

  let termination: Termination | undefined;
  let killTimer: NodeJS.Timeout | undefined;
  const alive = () => subprocess.exitCode === null && subprocess.signalCode === null;

  const terminate = (reason: Termination) => {
    termination ??= reason;
    if (pid === undefined || !alive()) return;
    if (!signalGroup(pid, "SIGTERM")) subprocess.kill("SIGTERM");
    killTimer ??= setTimeout(() => {
      if (!signalGroup(pid, "SIGKILL")) subprocess.kill("SIGKILL");
    }, graceMs).unref();
  };

  const timers: NodeJS.Timeout[] = [];
  if (pid !== undefined) {
    trackGroup(pid);
    if (options.timeoutMs !== undefined) {
      timers.push(setTimeout(() => terminate("timeout"), options.timeoutMs).unref());
    }
  }
  let idleTimer: NodeJS.Timeout | undefined;
  if (pid !== undefined && options.idleTimeoutMs !== undefined) {
    idleTimer = setTimeout(() => terminate("idle-timeout"), options.idleTimeoutMs).unref();
    timers.push(idleTimer);
  }
  const sawOutput = () => idleTimer?.refresh();

  subprocess.stdout?.on("data", (chunk: Buffer) => {
    sawOutput();
    options.onStdout(chunk);
  });
  subprocess.stderr?.on("data", (chunk: Buffer) => {
    sawOutput();
    tail.push(chunk);
    options.onStderr?.(chunk);
  });

  const onAbort = () => terminate("cancelled");
  options.signal?.addEventListener("abort", onAbort, { once: true });

  const done = (async (): Promise<ProcessExit> => {
    await exited;
    for (const timer of timers) clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    if (pid !== undefined) {
      // What the agent left behind in its group (tools, MCP servers) goes with it.
      await endGroup(pid, graceMs);
      if (killTimer !== undefined) clearTimeout(killTimer);
      untrackGroup(pid);
    }
    // A process that left the group could still hold the pipes open, so the wait for them is
    // bounded and the streams are closed after it.
    // Pipes usually close with the process: what it wrote last is read within a turn or two of the
    // event loop. Only pipes still open after that are waited for under a time limit, whose timer
    // would otherwise be the turn's first (Node sets its timers up on the first).
    for (let turn = 0; turn < 2 && !pipesClosed; turn += 1) await new Promise(setImmediate);
    if (!pipesClosed && !(await settleWithin(drained, graceMs))) {
      subprocess.stdout?.destroy();
      subprocess.stderr?.destroy();
      await drained;
    }
    // A payload nobody read (a process outside the group holding the pipe) is dropped.
    subprocess.stdin?.destroy();
    const durationMs = Date.now() - started;
    if (pid === undefined) {
      return {
        exitCode: null,
        signal: null,
        stderrTail: tail.text(),
        termination,
        durationMs,
        spawnError: spawnError ?? { message: "could not start" },
      };
    }
    return {
      exitCode: subprocess.exitCode,
      signal: subprocess.signalCode,
      stderrTail: tail.text(),
      termination,
      durationMs,
      pid,
    };
  })();

  return {
    pid,
    terminate,
    done,
    get stopping() {
      return termination !== undefined;
    },
    ...(options.openStdin && subprocess.stdin !== null ? { input: subprocess.stdin } : {}),
  };
}

/** A process that never ran: cancelled before it started, or refused by spawn itself. */
function notStarted(exit: Pick<ProcessExit, "durationMs" | "termination" | "spawnError">): AgentProcess {
  return {
    pid: undefined,
    terminate() {},
    stopping: exit.termination !== undefined,
    done: Promise.resolve({ exitCode: null, signal: null, stderrTail: "", ...exit }),
  };
}

/** SIGTERM to whatever is left of the group, SIGKILL after `graceMs`. Returns at once when the
 * group is already gone, the usual case. */
async function endGroup(pid: number, graceMs: number): Promise<void> {
  if (!groupAlive(pid)) return;
  signalGroup(pid, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (groupAlive(pid) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, GROUP_POLL_MS));
  }
  signalGroup(pid, "SIGKILL");
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

/** The last `max` bytes written to it. */
class TailBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  private readonly max: number;

  constructor(max: number) {
    this.max = max;
  }

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    // Drop whole chunks from the front while the rest still holds `max` bytes.
    for (
      let first = this.chunks[0];
      first !== undefined && this.size - first.length >= this.max;
      first = this.chunks[0]
    ) {
      this.chunks.shift();
      this.size -= first.length;
    }
  }

  text(): string {
    // Most agents write nothing on stderr in a turn that went well.
    if (this.size === 0) return "";
    const all = Buffer.concat(this.chunks);
    const kept = all.length > this.max ? all.subarray(all.length - this.max) : all;
    // A cut through a multi-byte character leaves replacement characters at the start.
    return kept.toString("utf8").replace(/^\uFFFD+/, "");
  }
}
