// A session host's socket path made ready for use. Its folder is $SCV_HOME/hosts (0700) or, for an
// $SCV_HOME too deep for a unix socket's path, a short private folder outside it (host-files.ts
// names them): made 0700 if it is missing, and used only when it is a real folder (no link) owned by
// this user and open to no one else — another user's folder there could take a turn's prompts.

import { lstatSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { ensureScvDir } from "./agent-home.js";
import { hostSocket, hostsDir } from "./host-files.js";
import type { Env } from "./paths.js";

/** The socket of `handle`'s host, its folder ready; undefined when no usable path can be had (the
 * turn then runs cold). */
export function preparedHostSocket(handle: string, env: Env): string | undefined {
  const socket = hostSocket(handle, env);
  if (socket === undefined) return undefined;
  const folder = dirname(socket);
  if (folder === hostsDir(env)) {
    ensureScvDir(env, "hosts");
    return socket;
  }
  return privateFolder(folder) ? socket : undefined;
}

/** Whether `folder` is (or now is) this user's own folder, not a link, with no access for others. */
export function privateFolder(folder: string): boolean {
  try {
    mkdirSync(folder, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") return false;
  }
  const stats = lstatSync(folder, { throwIfNoEntry: false });
  const uid = process.getuid?.();
  return (
    stats?.isDirectory() === true && (uid === undefined || stats.uid === uid) && (stats.mode & 0o077) === 0
  );
}
