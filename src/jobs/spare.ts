// The spare runner of `scv mcp`: one detached scv started ahead of time, already loaded, waiting on
// its stdin for a job. A delegate call hands its job to the spare instead of starting a detached scv
// and waiting for Node and scv to load — the server is already running, so a call should cost less
// than `scv delegate` — and a new spare is started for the next call once the job runs.
//
// The spare's output goes to `$SCV_HOME/turns/spare.<server pid>.<n>.log`, renamed to the job's log
// when it is handed one. The server releases its spare when it exits (its stdin closes empty, and it
// exits); a spare whose server died gets that too, and every scv start sweeps the logs of spares
// whose server is dead. A spare started before scv's own files changed (an upgrade) is discarded: it
// would run the old code.

import { closeSync, renameSync, statSync } from "node:fs";
import { ensureScvDir, openOwnFileForAppend } from "../home/agent-home.js";
import type { Env } from "../home/paths.js";
import { removeIfPresent } from "../home/remove.js";
import { spareLog } from "../home/turn-files.js";
import {
  type DetachedHandOff,
  type DetachedOutcome,
  type DetachedProcess,
  spawnDetached,
} from "../process/helpers.js";
import { cleanUpAtExit } from "../process/lifecycle.js";

export interface SpareRunner {
  /** Hands `handOff` to the spare, with its log renamed to `logPath`; undefined when there is no
   * spare fit to take it (the caller starts a detached scv itself). A new spare follows either way. */
  hand(handOff: DetachedHandOff, logPath: string): Promise<DetachedOutcome | undefined>;
  /** Lets the spare go (it exits) and removes its log. */
  release(): void;
}

interface Spare {
  readonly process: DetachedProcess;
  readonly log: string;
  readonly startedAt: number;
}

export interface SpareOptions {
  readonly env: Env;
  readonly cwd: string;
  /** The command and arguments of a detached scv running `background-turn`, and its environment. */
  readonly command: string;
  readonly args: readonly string[];
  readonly spawnEnv: NodeJS.ProcessEnv;
  /** The files whose change means scv was upgraded (its script). */
  readonly code: string;
}

export function createSpareRunner(options: SpareOptions): SpareRunner {
  let spare: Promise<Spare | undefined> | undefined;
  /** The spare once it runs, so that a release lets it go at once. */
  let ready: Spare | undefined;
  let count = 0;
  let released = false;

  /** Logs of spares not handed a job: removed at the server's exit, also one by a signal (SIGTERM),
   * where no release runs; a spare's own exit needs none of it. */
  const logs = new Set<string>();
  cleanUpAtExit(() => {
    for (const log of logs) removeIfPresent(log);
  });
  const removeLog = (log: string) => {
    logs.delete(log);
    removeIfPresent(log);
  };

  const discard = (each: Spare) => {
    each.process.release();
    removeLog(each.log);
  };

  const start = (): Promise<Spare | undefined> => {
    count += 1;
    const log = spareLog(process.pid, count, options.env);
    logs.add(log);
    const startedAt = Date.now();
    return (async () => {
      ensureScvDir(options.env, "turns");
      const fd = openOwnFileForAppend(log);
      let spawned: DetachedProcess;
      try {
        spawned = await spawnDetached(options.command, options.args, {
          env: options.spawnEnv,
          cwd: options.cwd,
          output: fd,
        });
      } finally {
        closeSync(fd);
      }
      const each = { process: spawned, log, startedAt };
      // Released while it started: it goes at once.
      if (released) {
        discard(each);
        return undefined;
      }
      ready = each;
      return each;
    })().catch(() => {
      removeLog(log);
      return undefined;
    });
  };

  const next = () => {
    if (!released) spare = start();
  };

  const upgradedSince = (startedAt: number): boolean => {
    try {
      return statSync(options.code).mtimeMs > startedAt;
    } catch {
      return true;
    }
  };

  next();
  return {
    async hand(handOff, logPath) {
      // Claimed at once: a call made meanwhile starts its own detached scv.
      const pending = spare;
      if (pending === undefined) return undefined;
      spare = undefined;
      const taken = await pending;
      if (ready === taken) ready = undefined;
      if (taken === undefined || taken.process.exited() || upgradedSince(taken.startedAt)) {
        if (taken !== undefined) discard(taken);
        next();
        return undefined;
      }
      try {
        renameSync(taken.log, logPath);
        // The job's log now, which its result's reader removes.
        logs.delete(taken.log);
      } catch {
        discard(taken);
        next();
        return undefined;
      }
      const outcome = await taken.process.hand(handOff);
      // The next one loads while this job's agent works.
      next();
      return outcome;
    },
    release() {
      released = true;
      if (ready !== undefined) discard(ready);
      ready = undefined;
      spare = undefined;
    },
  };
}
