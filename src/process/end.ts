// The one way scv ends a process it started: SIGTERM to its whole process group (and to every
// process carrying its tag that left the group, a daemon after setsid), then SIGKILL to whatever is
// still there after the grace. Every runner in src/process/ ends what it started through here: at a
// time limit, an idle limit, a cancellation, and after the process exits (what it left behind).

import type { ChildProcess } from "node:child_process";
import { systemProcessTable } from "../os/processes.js";
import { groupAlive, signalGroup } from "./groups.js";

/** Carried by every helper process and whatever it starts: `<scv pid>-<n>-<time>-<random>`. The random
 * part keeps tags apart where the pid and the count are shared or restart: worker threads of one
 * process each count from 1 (a test runner's threads did, in the same millisecond, and one ended the
 * other's git). */
export const HELPER_TAG_VARIABLE = "SCV_HELPER";

/** How often what is being ended is looked at. */
const POLL_MS = 25;

type Mark = ReturnType<NonNullable<typeof systemProcessTable.pidMark>>;

/** A tag put in a process's environment, and the process-table mark from before it started: what
 * carries the tag and was created since is the process's. */
export interface Tag {
  readonly value: string;
  readonly since: Mark;
}

let tags = 0;

/** A new tag for a process about to start. */
export function newTag(): Tag {
  tags += 1;
  const random = Math.floor(Math.random() * 2 ** 32).toString(36);
  return { value: `${process.pid}-${tags}-${Date.now()}-${random}`, since: systemProcessTable.pidMark?.() };
}

/** What carries `tag` now (the process itself included while it lives); zombies do not count, their
 * environment is gone. */
export function tagged(tag: Tag): number[] {
  const table = systemProcessTable;
  return (
    table.pidsByEnv?.(HELPER_TAG_VARIABLE, new Set([tag.value]), tag.since).get(tag.value) ??
    table.pidsWithEnv(HELPER_TAG_VARIABLE, tag.value)
  );
}

export function signalAll(pids: readonly number[], name: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, name);
    } catch {
      // Gone meanwhile.
    }
  }
}

/** What is ended: the group a process leads, what carries its tag, or both. */
export interface Whole {
  /** The group's leader pid (the process spawned detached). */
  readonly group?: number;
  /** Signalled itself when its group cannot be (it leads none). */
  readonly leader?: ChildProcess;
  readonly tag?: Tag;
}

function signalWhole(whole: Whole, name: NodeJS.Signals): void {
  if (whole.group !== undefined && !signalGroup(whole.group, name)) whole.leader?.kill(name);
  if (whole.tag !== undefined) signalAll(tagged(whole.tag), name);
}

/** SIGTERM to `whole`, SIGKILL to what is left of it after `graceMs`. Returns at once when nothing
 * of it is left, the usual case after an exit. */
export async function endWhole(whole: Whole, graceMs: number): Promise<void> {
  const living = () =>
    (whole.leader !== undefined && whole.leader.exitCode === null && whole.leader.signalCode === null) ||
    (whole.group !== undefined && groupAlive(whole.group)) ||
    (whole.tag !== undefined && tagged(whole.tag).length > 0);
  if (!living()) return;
  signalWhole(whole, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (living() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  signalWhole(whole, "SIGKILL");
}
