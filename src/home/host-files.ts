// Session hosts' files, in $SCV_HOME/hosts (0700, no link below $SCV_HOME followed): for a
// conversation whose ACP server stays up between turns (hosts/serve.ts), <handle>.sock
// is the socket its turns connect to and <handle>.json (0600, written atomically by the host) names
// the host's own process and its server's, each as pid plus start time, the tag the server's
// environment carries, the session it holds and when a turn last used it. `scv ps` lists them, the
// reaper ends the server of a host that died, `scv kill <handle>` ends one.

import { readdirSync } from "node:fs";
import { join } from "node:path";
import { type Env, scvHome } from "./paths.js";
import { removeIfPresent } from "./remove.js";

const RECORD_NAME = /^([a-z][a-z0-9-]*)\.json$/;

export function hostsDir(env: Env = process.env): string {
  return join(scvHome(env), "hosts");
}

export function hostSocket(handle: string, env: Env = process.env): string {
  return join(hostsDir(env), `${handle}.sock`);
}

export function hostRecordPath(handle: string, env: Env = process.env): string {
  return join(hostsDir(env), `${handle}.json`);
}

/** Where a host's own output goes (a failure it could not tell a turn). */
export function hostLog(handle: string, env: Env = process.env): string {
  return join(hostsDir(env), `${handle}.log`);
}

/** The handles with a host record: one readdir, nothing read (every scv start looks). */
export function hostHandles(env: Env = process.env): string[] {
  let names: string[];
  try {
    names = readdirSync(hostsDir(env));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const handle = RECORD_NAME.exec(name)?.[1];
    return handle === undefined ? [] : [handle];
  });
}

/** A host's socket, record and log, once nothing of it runs. */
export function removeHostFiles(handle: string, env: Env = process.env): void {
  removeIfPresent(hostSocket(handle, env));
  removeIfPresent(hostRecordPath(handle, env));
  removeIfPresent(hostLog(handle, env));
}
