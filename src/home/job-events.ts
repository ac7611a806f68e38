// A job's events as they happen, for `scv logs`: `$SCV_HOME/turns/<job>.events`, one JSON line per
// normalized event (the lines `scv delegate --events` prints), appended by the scv running the turn
// (turn/event-log.ts) and read by any other (jobs/follow.ts). Bounded: a file past EVENTS_FILE_BYTES
// becomes `<job>.events.1`, replacing the one before, and a new one starts, so a job keeps at most
// twice that. The files are 0600 and never opened through a link. Every read of them is here: on a
// descriptor state-file.ts opens (without waiting, a regular file only: a FIFO put in their place
// would hold a plain read forever), read in bounded pieces as the file grows.

import { closeSync, fstatSync, lstatSync, readSync, renameSync } from "node:fs";
import { openOwnFileForAppend } from "./agent-home.js";
import type { Env } from "./paths.js";
import { removeIfPresent } from "./remove.js";
import { noteRefused, openStateFile } from "./state-file.js";
import { jobFile } from "./turn-files.js";

/** A job's events file is set aside for a new one past this size. */
export const EVENTS_FILE_BYTES = 4 * 1024 * 1024;

/** The current file and the part before it, in the order they were written. */
export function eventsFiles(job: string, env: Env): { older: string; current: string } {
  return { older: jobFile(job, "events-old", env), current: jobFile(job, "events", env) };
}

/** The current file opened for appending (created 0600), and its size; throws when it cannot be. */
export function openEventsForAppend(job: string, env: Env): { fd: number; size: number } {
  const fd = openOwnFileForAppend(jobFile(job, "events", env));
  return { fd, size: fstatSync(fd).size };
}

/** The current file becomes the part before it; the next append starts a new one. */
export function setEventsAside(job: string, env: Env): void {
  const { older, current } = eventsFiles(job, env);
  renameSync(current, older);
}

export function removeEvents(job: string, env: Env): void {
  const { older, current } = eventsFiles(job, env);
  removeIfPresent(current);
  removeIfPresent(older);
}

/** An events file open for reading: `id` tells it from a file that took its name since. */
export interface OpenEvents {
  readonly fd: number;
  readonly id: string;
}

/** `path` opened for reading when it is a regular file (home/state-file.ts: without waiting, never
 * through a link); undefined when it is absent, or anything else (said once in a note). */
export function openEvents(path: string): OpenEvents | undefined {
  const opened = openStateFile(path);
  if (opened.kind === "open") return { fd: opened.fd, id: `${opened.stats.dev}:${opened.stats.ino}` };
  if (opened.kind === "refused") noteRefused(path, opened.why);
  return undefined;
}

/** Which file has the name `path` now; undefined when none. */
export function eventsFileId(path: string): string | undefined {
  const stats = lstatSync(path, { throwIfNoEntry: false });
  return stats?.isFile() ? `${stats.dev}:${stats.ino}` : undefined;
}

/** Up to `max` bytes of `events` from `position`; empty at its end. */
export function readEventBytes(events: OpenEvents, position: number, max: number): Buffer {
  const buffer = Buffer.alloc(max);
  let length = 0;
  while (length < max) {
    const read = readSync(events.fd, buffer, length, max - length, position + length);
    if (read === 0) break;
    length += read;
  }
  return buffer.subarray(0, length);
}

export function closeEvents(events: OpenEvents): void {
  try {
    closeSync(events.fd);
  } catch {
    // Closed already.
  }
}
