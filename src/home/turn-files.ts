// Where running turns and background results live, named so that one readdir tells a running turn
// from a finished one. Every scv start looks here (to reap what a killed scv left behind), so this
// file imports nothing heavy; the registry itself is running.ts.
//
//   $SCV_HOME/turns/<handle>.json        a turn running now (its scv, its agent, its tag)
//   $SCV_HOME/turns/<handle>.done.json   a finished background or reaped turn, until `scv wait` reads it
//   $SCV_HOME/turns/<handle>.cancel      `scv kill` asking the turn's scv to stop it
//   $SCV_HOME/turns/<handle>.log         stdout and stderr of a background turn's scv

import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { type Env, scvHome } from "./paths.js";

export type TurnFileKind = "running" | "done" | "cancel" | "log";

const SUFFIX: Record<TurnFileKind, string> = {
  running: ".json",
  done: ".done.json",
  cancel: ".cancel",
  log: ".log",
};

/** Handles are `agent-xxxxxx` (no dot), so a running record's name is the only `<no dot>.json`. */
const RUNNING_NAME = /^([a-z][a-z0-9-]*)\.json$/;

export function turnsDir(env: Env = process.env): string {
  return join(scvHome(env), "turns");
}

export function turnFile(handle: string, kind: TurnFileKind, env: Env = process.env): string {
  return join(turnsDir(env), `${handle}${SUFFIX[kind]}`);
}

/** The handles with a running-turn record: one readdir, nothing read. */
export function runningHandles(env: Env = process.env): string[] {
  let names: string[];
  try {
    names = readdirSync(turnsDir(env));
  } catch {
    return [];
  }
  const handles: string[] = [];
  for (const name of names) {
    const handle = RUNNING_NAME.exec(name)?.[1];
    if (handle !== undefined) handles.push(handle);
  }
  return handles;
}

/** Whether a turn of `handle` is running or has an unread result, so a new conversation does not
 * take its handle. */
export function turnExists(handle: string, env: Env = process.env): boolean {
  return existsSync(turnFile(handle, "running", env)) || existsSync(turnFile(handle, "done", env));
}
