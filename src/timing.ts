// Every duration scv waits through on its own account, named once: the graces it gives a process
// that does not do what it should (exit, die on SIGTERM), the intervals of what it repeats, and the
// time it gives a step that normally finishes. Each module that waits reads its duration here.
//
// SCV_TEST_TIME_SCALE is for scv's own tests, not for users: a factor in (0, 1] that shortens the
// graces and intervals, so a test that waits one out does not wait 5 s — never a limit, which on a
// loaded machine would fail a step that works (a pipe still draining, a lock about to be let go, an
// answer on its way). It can only shorten: a value above 1, zero, or anything that is no number is
// ignored, and none goes below MIN_SCALE.

/** A duration a test may shorten: scv waits it out only when a process does not do what it should,
 * or it is how often something is repeated. */
const GRACES = {
  /** After a CLI's end-of-turn event, how long it has to exit before scv ends it (its verdict stands). */
  endGrace: 5_000,
  /** Between SIGTERM and SIGKILL for an agent's process group (a turn's CLI, an ACP server, a host's
   * server, what carries a turn's tag). */
  killGrace: 3_000,
  /** Between SIGTERM and SIGKILL for a helper process (a status check, `--version`, a sign-in). */
  helperKillGrace: 2_000,
  /** How often a session host checks its socket is still there. */
  hostSocketCheck: 1_000,
  /** The shortest wait for a rate limit's reset: a reset in the past never has the account ladder
   * ask again at once. */
  resetWaitMin: 1_000,
  /** Between the progress lines of a wait for a reset. */
  resetProgressInterval: 60_000,
  /** How often a turn refreshes its conversation's lock (proper-lockfile's `update`, at least 1 s);
   * the lock goes stale after LOCK_STALE_MS without one. */
  lockRefresh: 5_000,
  /** How often a turn's live line on a terminal redraws while the agent is silent: its elapsed time
   * moves. */
  progressTick: 1_000,
  /** How often `scv mcp` tells a client that asked for progress on a call that waits: hosts reset
   * their idle timers on it (lab: one cuts an idle stdio call after 30 minutes). */
  progressInterval: 5_000,
} as const;

/** The time a step that normally finishes is given, or a process that cooperates to do its part:
 * never shortened. */
const LIMITS = {
  /** How long the pipes of an agent that exited may stay open (held by something that left its
   * group) before scv stops reading them. */
  outputDrain: 3_000,
  /** The same for a helper process. */
  helperOutputDrain: 2_000,
  /** How long an ACP prompt may take to answer its `session/cancel`. */
  cancelGrace: 5_000,
  /** How long an ACP server that answered a prompt `cancelled` unasked has to show it is exiting. */
  unaskedCancelExit: 1_000,
  /** How long an ACP server whose connection closed may take to exit before it is ended. */
  closedExitGrace: 1_000,
  /** How long an ACP server may take to exit after answering the turn's prompt. */
  closeAfterAnswer: 200,
  /** How long a session host gives a prompt whose turn left to answer its cancel. */
  leftPromptGrace: 5_000,
  /** How long a session host's new connection waits for the one before it to close. */
  hostBusyWait: 1_000,
  /** How long a turn that left its session host may take to record its conversation before the
   * host ends without one. */
  hostRecordWait: 30_000,
  /** How long a background turn waits for its conversation's lock before it is refused as busy
   * (SCV_LOCK_WAIT is the foreground's): the turn before it may be letting it go. */
  backgroundLockWait: 2_000,
  /** The slack beyond one lock refresh before a lock no running turn is seen to hold, and that was
   * not refreshed meanwhile, counts as a killed scv's (src/turn/busy.ts): a turn takes its
   * conversation's lock just before it registers, and lets it go just after. */
  busySettle: 2_000,
  /** How long `scv kill` waits for a turn's scv to answer, beyond the kill grace, and then for its
   * agent to go once killed. */
  killAnswer: 5_000,
  /** How long a live session host may take to connect and say hello before it is taken for stuck. */
  helloLimit: 2_000,
  /** How long a new session host may take to listen. */
  hostStartLimit: 10_000,
  /** How long a session host asked to end may take (its server's grace included). */
  hostEndLimit: 8_000,
  /** How long a detached scv may take to start its agent, beyond its lock wait. */
  backgroundStartLimit: 60_000,
  /** ACP `initialize`, unless the turn's own time limit is shorter. */
  initializeLimit: 60_000,
  /** Any other ACP request. */
  requestLimit: 60_000,
  /** An agent CLI's `--version`. */
  versionLimit: 15_000,
  /** A CLI's own status command. */
  statusLimit: 10_000,
  /** One git call of a worktree's: a git that hangs (a lock held over NFS, a filter waiting for input)
   * ends. */
  gitLimit: 10 * 60_000,
  /** How long one scv waits for the others' worktree adds of a repository: a checkout of a large
   * project, times a fan-out's count. */
  worktreeLockWait: 10 * 60_000,
} as const;

type GraceName = keyof typeof GRACES;
type LimitName = keyof typeof LIMITS;
export type DurationName = GraceName | LimitName;

/** The shortest the test scale makes a grace: a twentieth of it. */
export const MIN_SCALE = 0.05;
export const TEST_TIME_SCALE_VARIABLE = "SCV_TEST_TIME_SCALE";

/** The factor SCV_TEST_TIME_SCALE names, within [MIN_SCALE, 1]; 1 when unset or not a shortening. */
export function timeScale(value: string | undefined): number {
  const scale = Number(value);
  if (value === undefined || value.trim() === "" || !Number.isFinite(scale) || scale <= 0 || scale >= 1)
    return 1;
  return Math.max(MIN_SCALE, scale);
}

/** `name`'s duration in milliseconds at `scale` (from `timeScale`): a grace scaled, a limit as it is. */
export function timingAt(name: DurationName, scale: number): number {
  return name in LIMITS ? LIMITS[name as LimitName] : Math.round(GRACES[name as GraceName] * scale);
}

/** `name`'s duration in milliseconds for this process: at the scale SCV_TEST_TIME_SCALE names. Read
 * from `process.env` here, one of the three places biome.json allows it: the scale is scv's tests'
 * setting for a whole process (every scv a test starts inherits it), not a command's context. */
export function timing(name: DurationName): number {
  return timingAt(name, timeScale(process.env[TEST_TIME_SCALE_VARIABLE]));
}

/** Every named duration, unscaled, for the docs and the tests. */
export const DURATIONS: Readonly<Record<DurationName, number>> = { ...GRACES, ...LIMITS };
