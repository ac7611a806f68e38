// scv's lifecycle, the one place signal handlers are installed (`handleSignals`, and the exits
// below): the process groups scv has started and not yet seen end, and what is cleaned up at exit.
// Agents and the CLIs scv asks for their version or sign-in status run detached, in groups of their
// own, so that ending one ends all it started; but then nothing else ends them when scv goes: a
// terminal's Ctrl-C, or its hangup when it closes, reaches scv's own group only. Whatever is still
// alive when scv exits is SIGKILLed from its 'exit' hook, and a SIGINT, SIGTERM or SIGHUP that no
// command is handling itself (a turn's withInterrupts does) exits through that hook with the
// documented code, where Node's default would end scv and leave the groups. Which commands handle
// them is said explicitly (`handleSignals` counts them): counting listeners cannot tell, since
// proper-lockfile's signal-exit listens too, and re-raises only while it listens alone.

import { EXIT } from "../errors.js";
import { signalGroup } from "./groups.js";

const liveGroups = new Set<number>();
/** Run at exit after the groups are killed: what those processes were using can go then. */
const cleanups = new Set<() => void>();
let installed = false;
/** How many running commands handle each signal themselves. */
const handlers = new Map<NodeJS.Signals, number>();

/** Installs the exit hook and the signal exits; scv's entry point does at start, so that every
 * command exits on those signals with the documented code (idempotent). */
export function installExitHooks(): void {
  if (installed) return;
  installed = true;
  // An 'exit' listener may only do synchronous work; process.kill and rmSync are.
  process.on("exit", () => {
    for (const group of liveGroups) signalGroup(group, "SIGKILL");
    for (const cleanup of cleanups) {
      try {
        cleanup();
      } catch {
        // Nothing more can be done on the way out.
      }
    }
  });
  const exitOn = (signal: NodeJS.Signals, code: number) =>
    process.on(signal, () => {
      if (!handlers.get(signal)) process.exit(code);
    });
  exitOn("SIGINT", EXIT.interrupted);
  exitOn("SIGTERM", EXIT.terminated);
  // The terminal closed. Node resets an inherited SIG_IGN at start-up (`nohup` does not keep it
  // alive), so listening changes nothing but what is left behind.
  exitOn("SIGHUP", EXIT.hangup);
}

/** Until the returned function is called, `signals` go to `handler` instead of exiting scv: the one
 * way a module listens for a signal (the exit on them is `installExitHooks`'s). */
export function handleSignals(
  signals: readonly NodeJS.Signals[],
  handler: (signal: NodeJS.Signals) => void,
): () => void {
  for (const signal of signals) {
    process.on(signal, handler);
    handlers.set(signal, (handlers.get(signal) ?? 0) + 1);
  }
  let done = false;
  return () => {
    if (done) return;
    done = true;
    for (const signal of signals) {
      process.off(signal, handler);
      handlers.set(signal, (handlers.get(signal) ?? 1) - 1);
    }
  };
}

/** Kills the group led by `pid` if scv exits before `untrackGroup(pid)`. */
export function trackGroup(pid: number): void {
  installExitHooks();
  liveGroups.add(pid);
}

export function untrackGroup(pid: number): void {
  liveGroups.delete(pid);
}

/** Runs `cleanup` if scv exits (or is interrupted) before the returned function is called. */
export function cleanUpAtExit(cleanup: () => void): () => void {
  installExitHooks();
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}
