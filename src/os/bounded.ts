// Every process scv starts other than an agent's turn goes through here, on execa: a CLI's
// `--version` and `login status`, its own sign-in and sign-out, `npm install`, the detached scv of
// a background turn. Each runs in a process group of its own (an interactive one excepted: it must
// share the terminal's), carries a tag in its environment that whatever it starts inherits, and
// ends WHOLE: when it exits, when its time limit passes, or when scv goes, its group and every
// tagged process that left the group (a daemon after setsid) get SIGTERM, then SIGKILL after a
// grace period. So a probe that leaves a daemon holding its stdout cannot hold scv: once everything
// is ended, pipes still open are closed too.

import { createWriteStream } from "node:fs";
import type { Writable } from "node:stream";
import { detachedEnvironment } from "./detached-env.js";
import {
  cleanUpAtExit,
  groupAlive,
  handlingSignals,
  signalGroup,
  trackGroup,
  untrackGroup,
} from "./groups.js";
import { systemProcessTable } from "./processes.js";

/** Carried by every helper process and whatever it starts: `<scv pid>-<n>-<time>`. */
export const HELPER_TAG_VARIABLE = "SCV_HELPER";

/** Between SIGTERM and SIGKILL. */
const DEFAULT_GRACE_MS = 2_000;
/** How often what is being ended is looked at. */
const POLL_MS = 25;

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
  /** Aborting ends it as its limit would (without counting as timed out). */
  readonly signal?: AbortSignal;
}

let helpers = 0;

function newTag(): string {
  helpers += 1;
  return `${process.pid}-${helpers}-${Date.now()}`;
}

/** What carries `tag` now (the helper itself included while it lives); zombies do not count, their
 * environment is gone. */
function tagged(tag: string, since: ReturnType<NonNullable<typeof systemProcessTable.pidMark>>): number[] {
  const table = systemProcessTable;
  return (
    table.pidsByEnv?.(HELPER_TAG_VARIABLE, new Set([tag]), since).get(tag) ??
    table.pidsWithEnv(HELPER_TAG_VARIABLE, tag)
  );
}

function signal(pids: readonly number[], name: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, name);
    } catch {
      // Gone meanwhile.
    }
  }
}

/** Ends what `tag` marks: the group led by `group` (when there is one) and every tagged process,
 * SIGTERM first, SIGKILL to what is left after `graceMs`. Returns at once when nothing is left. */
async function endAll(tag: string, group: number | undefined, since: Mark, graceMs: number): Promise<void> {
  const living = () => (group !== undefined && groupAlive(group)) || tagged(tag, since).length > 0;
  if (!living()) return;
  if (group !== undefined) signalGroup(group, "SIGTERM");
  signal(tagged(tag, since), "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (living() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  if (group !== undefined) signalGroup(group, "SIGKILL");
  signal(tagged(tag, since), "SIGKILL");
}

type Mark = ReturnType<NonNullable<typeof systemProcessTable.pidMark>>;

/** Runs a short helper command with a time limit, its output kept (or handed on), and ends
 * everything it started once it exits or its limit passes. */
export async function runBounded(
  command: string,
  args: readonly string[],
  options: BoundedOptions,
): Promise<BoundedResult> {
  const { execa } = await import("./execa.js");
  const maxBytes = options.maxBytes ?? 64 * 1024;
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const tag = newTag();
  const since = systemProcessTable.pidMark?.();
  const subprocess = execa(command, [...args], {
    env: { ...options.env, [HELPER_TAG_VARIABLE]: tag },
    extendEnv: false,
    cwd: options.cwd,
    ...(options.input === undefined ? { stdin: "ignore" as const } : { input: options.input }),
    // Its own group, so that ending it ends what it started.
    detached: true,
    cleanup: false,
    buffer: false,
    reject: false,
  });
  const pid = subprocess.pid;
  if (pid !== undefined) trackGroup(pid);
  // Tagged processes that left the group are not in it: scv's own end takes them too.
  const forget = cleanUpAtExit(() => signal(tagged(tag, since), "SIGKILL"));

  const out = collector(maxBytes, options.forward?.stdout);
  const err = collector(maxBytes, options.forward?.stderr);
  subprocess.stdout?.on("data", out.push);
  subprocess.stderr?.on("data", err.push);
  subprocess.stdin?.on("error", () => {});

  let timedOut = false;
  const exited = new Promise<void>((resolve) => {
    subprocess.once("exit", () => resolve());
    subprocess.once("error", () => resolve());
  });
  const limit = setTimeout(() => {
    timedOut = true;
    void endAll(tag, pid, since, graceMs);
  }, options.timeoutMs);
  const stop = () => void endAll(tag, pid, since, graceMs);
  if (options.signal?.aborted) stop();
  else options.signal?.addEventListener("abort", stop, { once: true });
  await exited;
  clearTimeout(limit);
  options.signal?.removeEventListener("abort", stop);
  // What it left behind goes with it, in its group or not.
  await endAll(tag, pid, since, graceMs);
  if (pid !== undefined) untrackGroup(pid);
  forget();
  // Everything it started is ended; a pipe still open now is held by a process that dropped the
  // tag and left the group, and is not waited for.
  const closed = setTimeout(() => {
    subprocess.stdout?.destroy();
    subprocess.stderr?.destroy();
  }, graceMs);
  const result = await subprocess;
  clearTimeout(closed);
  if (pid === undefined) {
    return {
      code: null,
      stdout: "",
      stderr: "",
      timedOut: false,
      spawnError: result.originalMessage || result.shortMessage,
    };
  }
  return {
    code: timedOut ? null : (result.exitCode ?? null),
    stdout: out.text(),
    stderr: err.text(),
    timedOut,
  };
}

function collector(maxBytes: number, forward: Writable | undefined) {
  const chunks: Buffer[] = [];
  let bytes = 0;
  return {
    push: (chunk: Buffer) => {
      if (forward !== undefined) {
        forward.write(chunk);
        return;
      }
      if (bytes < maxBytes) chunks.push(chunk);
      bytes += chunk.length;
    },
    text: () => Buffer.concat(chunks).toString("utf8").slice(0, maxBytes),
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
  const { execa } = await import("./execa.js");
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const tag = newTag();
  const since = systemProcessTable.pidMark?.();
  let stoppedBy: "SIGTERM" | "SIGHUP" | undefined;
  const ignore = () => {};
  const stop = (name: "SIGTERM" | "SIGHUP") => {
    stoppedBy ??= name;
    void endAll(tag, undefined, since, graceMs);
  };
  const onTerm = () => stop("SIGTERM");
  const onHup = () => stop("SIGHUP");
  process.on("SIGINT", ignore);
  process.on("SIGQUIT", ignore);
  process.on("SIGTERM", onTerm);
  process.on("SIGHUP", onHup);
  const handled = handlingSignals(["SIGINT", "SIGTERM", "SIGHUP"]);
  // A last resort for an scv that exits some other way meanwhile.
  const forget = cleanUpAtExit(() => signal(tagged(tag, since), "SIGKILL"));
  try {
    const subprocess = execa(command, [...args], {
      stdio: "inherit",
      env: { ...options.env, [HELPER_TAG_VARIABLE]: tag },
      extendEnv: false,
      cwd: options.cwd,
      cleanup: false,
      reject: false,
    });
    const result = await subprocess;
    await endAll(tag, undefined, since, graceMs);
    if (subprocess.pid === undefined) {
      return {
        code: undefined,
        signal: undefined,
        spawnError: result.originalMessage || result.shortMessage,
      };
    }
    return {
      code: result.exitCode,
      signal: result.signal,
      ...(stoppedBy === undefined ? {} : { stoppedBy }),
    };
  } finally {
    forget();
    process.off("SIGINT", ignore);
    process.off("SIGQUIT", ignore);
    process.off("SIGTERM", onTerm);
    process.off("SIGHUP", onHup);
    handled();
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
  const { execa } = await import("./execa.js");
  const tag = newTag();
  const since = systemProcessTable.pidMark?.();
  const output = createWriteStream("", { fd: options.output, autoClose: false });
  const subprocess = execa(command, [...args], {
    // Only what scv reads: it outlives its caller, environment and all (os/detached-env.ts).
    env: { ...detachedEnvironment(options.env), [HELPER_TAG_VARIABLE]: tag },
    extendEnv: false,
    cwd: options.cwd,
    // A stream over the file's descriptor: spawn hands the descriptor itself to the process, which
    // writes there after scv is gone.
    stdio: ["pipe", output, output, "pipe"],
    detached: true,
    cleanup: false,
    buffer: false,
    reject: false,
  });
  // One that dies before reading its input must not take the launcher with it (EPIPE).
  subprocess.stdin?.on("error", () => {});
  let exited = false;
  void subprocess.then(() => {
    exited = true;
  });
  const ready = subprocess.stdio[READY_FD];
  const letGo = () => {
    ready?.destroy();
    subprocess.unref();
  };
  return {
    pid: subprocess.pid,
    exited: () => exited || subprocess.pid === undefined,
    release() {
      subprocess.stdin?.end();
      letGo();
    },
    async hand(handOff) {
      subprocess.stdin?.end(handOff.input);
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
        subprocess.once("error", () => settle("ended"));
      });
      if (outcome === "timed-out")
        await endAll(tag, subprocess.pid, since, handOff.graceMs ?? DEFAULT_GRACE_MS);
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
