// Every process scv starts other than an agent's turn or ACP server goes through here (each on
// spawn.ts): a CLI's `--version` and `login status`, its own sign-in and sign-out, git, `npm
// install`, the `[notify]` command, the detached scv of a background turn or a session host. Each runs in a process group of its own (an interactive one excepted: it must
// share the terminal's), carries a tag in its environment that whatever it starts inherits, and
// ends WHOLE: when it exits, when its time limit passes, or when scv goes, its group and every
// tagged process that left the group (a daemon after setsid) get SIGTERM, then SIGKILL after a
// grace period. So a probe that leaves a daemon holding its stdout cannot hold scv: once everything
// is ended, pipes still open are closed too.

import type { Writable } from "node:stream";
import { detachedEnvironment } from "../os/detached-env.js";
import { timing } from "../timing.js";
import { endWhole, HELPER_TAG_VARIABLE, newTag, signalAll, tagged } from "./end.js";
import { cleanUpAtExit, handleSignals } from "./lifecycle.js";
import { OutputBound } from "./output.js";
import { startProcess } from "./run.js";
import { spawnProcess } from "./spawn.js";

export interface BoundedResult {
  /** Exit code, or null when it ended by a signal, was ended at its limit, or never started. */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  /** Set when it could not be started at all. */
  readonly spawnError?: string;
}

export interface BoundedOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
  readonly timeoutMs: number;
  /** Bytes kept of each stream (default 64 KiB); the rest is read and dropped. */
  readonly maxBytes?: number;
  /** Written to stdin, which is then closed; stdin is /dev/null otherwise. */
  readonly input?: string;
  /** Its output handed on as it comes (and not kept), to these streams. */
  readonly forward?: { readonly stdout: Writable; readonly stderr: Writable };
  readonly graceMs?: number;
}

/** Runs a short helper command with a time limit, its output kept (or handed on), and ends
 * everything it started once it exits or its limit passes: `startProcess`, tagged, its output
 * bounded from the top. */
export async function runBounded(
  command: string,
  args: readonly string[],
  options: BoundedOptions,
): Promise<BoundedResult> {
  const maxBytes = options.maxBytes ?? 64 * 1024;
  const out = keeper(maxBytes, options.forward?.stdout);
  const err = keeper(maxBytes, options.forward?.stderr);
  const exit = await startProcess({
    file: command,
    args,
    cwd: options.cwd ?? process.cwd(),
    env: options.env,
    ...(options.input === undefined ? {} : { stdin: options.input }),
    timeoutMs: options.timeoutMs,
    graceMs: options.graceMs ?? timing("helperKillGrace"),
    // Everything it started is ended by then; a pipe still open is held by a process that dropped
    // the tag and left the group, and is not waited for.
    drainMs: options.graceMs ?? timing("helperOutputDrain"),
    tagged: true,
    onStdout: out.push,
    onStderr: err.push,
  }).done;
  if (exit.spawnError !== undefined) {
    return { code: null, stdout: "", stderr: "", timedOut: false, spawnError: exit.spawnError.message };
  }
  const timedOut = exit.termination === "timeout";
  return {
    code: timedOut ? null : exit.exitCode,
    stdout: out.text(),
    stderr: err.text(),
    timedOut,
  };
}

/** What is kept of one stream: its first `maxBytes`, or nothing when it is handed on. */
function keeper(maxBytes: number, forward: Writable | undefined) {
  const kept = new OutputBound(maxBytes, "first");
  return {
    push: (chunk: Buffer) => {
      if (forward !== undefined) forward.write(chunk);
      else kept.push(chunk);
    },
    text: () => kept.text(),
  };
}

export interface AttachedResult {
  /** Exit code; undefined when it ended by a signal or never started. */
  readonly code: number | undefined;
  readonly signal: string | undefined;
  /** scv was told to stop meanwhile (SIGTERM) or its terminal closed (SIGHUP): it ended the CLI. */
  readonly stoppedBy?: "SIGTERM" | "SIGHUP";
  /** Set when it could not be started at all. */
  readonly spawnError?: string;
}

/** Runs a CLI with the terminal attached and no time limit: a person is answering it. It shares the
 * terminal's process group (it reads the terminal), so while it runs Ctrl-C is its own (scv ignores
 * SIGINT and SIGQUIT, as a shell does); SIGTERM or a closed terminal (SIGHUP) ends it and what it
 * started (`stoppedBy` says so). Whatever it leaves running is ended. */
export async function runAttached(
  command: string,
  args: readonly string[],
  options: {
    readonly env: Readonly<Record<string, string>>;
    readonly cwd: string;
    readonly graceMs?: number;
  },
): Promise<AttachedResult> {
  const graceMs = options.graceMs ?? timing("helperKillGrace");
  const tag = newTag();
  let stoppedBy: "SIGTERM" | "SIGHUP" | undefined;
  const stop = (name: "SIGTERM" | "SIGHUP") => {
    stoppedBy ??= name;
    void endWhole({ tag }, graceMs);
  };
  const ignored = handleSignals(["SIGINT", "SIGQUIT"], () => {});
  const stopping = handleSignals(["SIGTERM", "SIGHUP"], (name) => stop(name as "SIGTERM" | "SIGHUP"));
  // A last resort for an scv that exits some other way meanwhile.
  const forget = cleanUpAtExit(() => signalAll(tagged(tag), "SIGKILL"));
  try {
    const spawned = spawnProcess({
      file: command,
      args,
      cwd: options.cwd,
      env: { ...options.env, [HELPER_TAG_VARIABLE]: tag.value },
      stdio: "inherit",
      // It reads the terminal: it stays in the terminal's group.
      detached: false,
    });
    await spawned.exited;
    await endWhole({ tag }, graceMs);
    const error = spawned.spawnError();
    if (spawned.child === undefined || error !== undefined) {
      return { code: undefined, signal: undefined, spawnError: error?.message ?? "could not start" };
    }
    return {
      code: spawned.child.exitCode ?? undefined,
      signal: spawned.child.signalCode ?? undefined,
      ...(stoppedBy === undefined ? {} : { stoppedBy }),
    };
  } finally {
    forget();
    ignored();
    stopping();
  }
}

/** The pipe a detached process says it is ready on. */
export const READY_FD = 3;

export interface DetachedOptions extends DetachedStart, DetachedHandOff {}

export interface DetachedStart {
  /** The caller's environment: the process gets only what scv reads of it (os/detached-env.ts). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** An open file its stdout and stderr go to; the caller may close it once this has returned. */
  readonly output: number;
}

export interface DetachedHandOff {
  /** Written to its stdin, which is then closed. */
  readonly input: string;
  /** The word it says on its fd `READY_FD` once it is ready. */
  readonly readyWord: string;
  /** Not ready by then: it is ended, whole. */
  readonly readyWithinMs: number;
  readonly graceMs?: number;
}

export type DetachedOutcome = "ready" | "ended" | "timed-out";

/** A detached process started and waiting on its stdin for its input. */
export interface DetachedProcess {
  readonly pid: number | undefined;
  /** Whether it has exited already (then handing it anything is pointless). */
  exited(): boolean;
  /** Gives it its input, waits until it says it is ready, then lets it go (see `startDetached`). */
  hand(handOff: DetachedHandOff): Promise<DetachedOutcome>;
  /** Closes its stdin with nothing on it, and lets it go: it is to exit. */
  release(): void;
}

/** Starts a process meant to outlive scv in a session of its own, its stdin left open: it loads,
 * then waits for what `hand` writes there. */
export async function spawnDetached(
  command: string,
  args: readonly string[],
  options: DetachedStart,
): Promise<DetachedProcess> {
  const tag = newTag();
  const spawned = spawnProcess({
    file: command,
    args,
    cwd: options.cwd,
    // Only what scv reads: it outlives its caller, environment and all (os/detached-env.ts).
    env: { ...detachedEnvironment(options.env), [HELPER_TAG_VARIABLE]: tag.value },
    // The file's descriptor itself: the process writes there after scv is gone.
    stdio: ["pipe", options.output, options.output, "pipe"],
    detached: true,
  });
  const subprocess = spawned.child;
  // One that dies before reading its input must not take the launcher with it (EPIPE).
  subprocess?.stdin?.on("error", () => {});
  let exited = false;
  void spawned.exited.then(() => {
    exited = true;
  });
  const ready = subprocess?.stdio[READY_FD];
  const letGo = () => {
    ready?.destroy();
    subprocess?.unref();
  };
  return {
    pid: spawned.pid,
    exited: () => exited || spawned.pid === undefined,
    release() {
      subprocess?.stdin?.end();
      letGo();
    },
    async hand(handOff) {
      subprocess?.stdin?.end(handOff.input);
      const outcome = await new Promise<DetachedOutcome>((resolve) => {
        const limit = setTimeout(() => resolve("timed-out"), handOff.readyWithinMs);
        const settle = (value: "ready" | "ended") => {
          clearTimeout(limit);
          resolve(value);
        };
        if (ready === null || ready === undefined || !("setEncoding" in ready)) {
          settle("ended");
          return;
        }
        let text = "";
        ready.setEncoding("utf8");
        ready.on("data", (chunk: string) => {
          text += chunk;
          if (text.includes(handOff.readyWord)) settle("ready");
        });
        ready.on("close", () => settle(text.includes(handOff.readyWord) ? "ready" : "ended"));
        ready.on("error", () => settle("ended"));
        void spawned.exited.then(() => {
          if (spawned.spawnError() !== undefined) settle("ended");
        });
      });
      if (outcome === "timed-out")
        await endWhole({ group: spawned.pid, tag }, handOff.graceMs ?? timing("helperKillGrace"));
      letGo();
      return outcome;
    },
  };
}

/** Starts a process meant to outlive scv (the detached scv of a background turn) in a session of its
 * own, and waits until it says it is ready, then lets it go: "ready". "ended": it closed its ready
 * pipe without saying so (it exited, or will). "timed-out": it said nothing in time, and it and all
 * it started were ended. */
export async function startDetached(
  command: string,
  args: readonly string[],
  options: DetachedOptions,
): Promise<DetachedOutcome> {
  return (await spawnDetached(command, args, options)).hand(options);
}
