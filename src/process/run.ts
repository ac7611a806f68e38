// A process scv runs to its end: an agent's turn or ACP server, and (through helpers.ts) a probe,
// git, `npm install`. Spawned in its own process group with stdin closed (or given its payload, then
// closed, or left open for the caller), its stdout handed on chunk by chunk (turn.ts frames it into
// lines for the parser), a bounded tail of its stderr kept for messages, and the whole group ended
// on a time limit, an idle limit or a cancellation: SIGTERM, then SIGKILL after a grace period
// (end.ts). The first termination reason wins. When it exits, what it left in its group (and, when
// tagged, what carries its tag) is ended the same way.
import type { Writable } from "node:stream";
import { timing } from "../timing.js";
import { endWhole, HELPER_TAG_VARIABLE, newTag, signalAll, tagged } from "./end.js";
import { cleanUpAtExit, trackGroup, untrackGroup } from "./lifecycle.js";
import { OutputBound } from "./output.js";
import { type SpawnError, spawnProcess } from "./spawn.js";

/** Why scv ended a process itself. */
export type Termination = "timeout" | "idle-timeout" | "cancelled";

export interface ProcessOptions {
  /** The executable (an absolute path, as resolved by `locateAgent`). */
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The complete environment; nothing of scv's own is added (but the tag, with `tagged`). An
   * undefined value is left out. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Written to stdin, which is then closed; without it stdin is /dev/null. */
  readonly stdin?: string;
  /** Keeps stdin an open pipe for the caller to write (`AgentProcess.input`): an ACP agent reads
   * JSON-RPC there for as long as it runs. `stdin` is then not written. */
  readonly openStdin?: boolean;
  /** Whole-process limit. */
  readonly timeoutMs?: number;
  /** Limit on time without any output (stdout or stderr). */
  readonly idleTimeoutMs?: number;
  /** Between SIGTERM and SIGKILL; also the wait for its pipes after its exit, when given. */
  readonly graceMs?: number;
  /** How long its pipes may stay open after its exit (held by something that left its group). */
  readonly drainMs?: number;
  /** Puts a tag in its environment (HELPER_TAG_VARIABLE) that whatever it starts inherits: what
   * carries it is ended with its group, also what left the group (a daemon after setsid), and
   * SIGKILLed if scv exits first. */
  readonly tagged?: boolean;
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
  readonly spawnError?: SpawnError;
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

const DEFAULT_STDERR_TAIL_BYTES = 16 * 1024;

export function startProcess(options: ProcessOptions): AgentProcess {
  const started = Date.now();
  const graceMs = options.graceMs ?? timing("killGrace");
  const tail = new OutputBound(options.stderrTailBytes ?? DEFAULT_STDERR_TAIL_BYTES, "last");

  if (options.signal?.aborted) return notStarted({ termination: "cancelled", durationMs: 0 });

  const tag = options.tagged ? newTag() : undefined;
  const spawned = spawnProcess({
    file: options.file,
    args: options.args,
    cwd: options.cwd,
    env: tag === undefined ? options.env : { ...options.env, [HELPER_TAG_VARIABLE]: tag.value },
    // A CLI may wait forever on an open stdin pipe, even with a prompt argument (lab): a pipe only
    // for a payload, closed once it is written.
    stdio: [options.stdin === undefined && !options.openStdin ? "ignore" : "pipe", "pipe", "pipe"],
    // Its own process group, so the agent's tools and MCP servers can be ended with it.
    detached: true,
  });
  const { child: subprocess, pid } = spawned;
  if (subprocess === undefined) {
    return notStarted({ durationMs: Date.now() - started, spawnError: spawned.spawnError() });
  }
  if (options.openStdin) subprocess.stdin?.on("error", () => {});
  else if (options.stdin !== undefined && subprocess.stdin !== null) {
    // Written as the pipe drains while stdout is read, so a prompt of megabytes cannot deadlock
    // against an agent that writes before it reads. An agent that exits (or fails to start) without
    // reading it breaks the pipe: EPIPE changes nothing about how the turn ends.
    subprocess.stdin.on("error", () => {});
    subprocess.stdin.end(options.stdin);
  }

  const whole = { group: pid, leader: subprocess, tag };
  let termination: Termination | undefined;
  let ending: Promise<void> | undefined;
  const alive = () => subprocess.exitCode === null && subprocess.signalCode === null;

  const terminate = (reason: Termination) => {
    termination ??= reason;
    if (pid === undefined || !alive()) return;
    ending ??= endWhole(whole, graceMs);
  };

  const timers: NodeJS.Timeout[] = [];
  // Tagged processes that left the group are not in it: scv's own end takes them too.
  const forget = tag === undefined ? () => {} : cleanUpAtExit(() => signalAll(tagged(tag), "SIGKILL"));
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
    await spawned.exited;
    for (const timer of timers) clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    if (pid !== undefined) {
      // What the agent left behind in its group (tools, MCP servers) goes with it.
      await ending;
      await endWhole(whole, graceMs);
      untrackGroup(pid);
    }
    forget();
    await spawned.drain(options.graceMs ?? options.drainMs ?? timing("outputDrain"));
    const durationMs = Date.now() - started;
    if (pid === undefined) {
      return {
        exitCode: null,
        signal: null,
        stderrTail: tail.text(),
        termination,
        durationMs,
        spawnError: spawned.spawnError() ?? { message: "could not start" },
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
