// Session hosts' files, in $SCV_HOME/hosts (0700, no link below $SCV_HOME followed): for a
// conversation whose ACP server stays up between turns (acp/session-host/serve.ts), <handle>.sock
// is the socket its turns connect to (where that path is too long for a unix socket, the same name
// in a private folder of a short path: host-socket.ts) and <handle>.json (0600, written atomically by the host) names
// the host's own process and its server's, each as pid plus start time, the tag the server's
// environment carries, the session it holds and when a turn last used it. `scv ps` lists them, the
// reaper ends the server of a host that died, `scv kill <handle>` ends one.

import { readdirSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { type Env, scvHome } from "./paths.js";
import { removeIfPresent } from "./remove.js";

const RECORD_NAME = /^([a-z][a-z0-9-]*)\.json$/;

export function hostsDir(env: Env): string {
  return join(scvHome(env), "hosts");
}

/** The longest path a unix socket can have: sun_path less its NUL, 108 bytes on Linux, 104 on macOS
 * and the BSDs. */
export const SOCKET_PATH_MAX = process.platform === "linux" ? 107 : 103;

/** Where the host of `handle` listens: $SCV_HOME/hosts/<handle>.sock, or where that is too long for a
 * unix socket, `<handle>.sock` in the first of socketFolders that fits; undefined when none does. The
 * same environment always gives the same path (a turn and its host agree on it). */
export function hostSocket(handle: string, env: Env): string | undefined {
  const name = `${handle}.sock`;
  const inHome = join(hostsDir(env), name);
  if (Buffer.byteLength(inHome) <= SOCKET_PATH_MAX) return inHome;
  const folder = socketFolders(env).find((each) => Buffer.byteLength(join(each, name)) <= SOCKET_PATH_MAX);
  return folder === undefined ? undefined : join(folder, name);
}

/** Short private folders for the sockets of an $SCV_HOME too deep for them, in order:
 * `$XDG_RUNTIME_DIR/scv-<hash>` (the user's own runtime folder, where there is one),
 * `$TMPDIR/scv-<uid>-<hash>`, `/tmp/scv-<uid>-<hash>` — the hash that of $SCV_HOME, so two homes
 * never share one. host-socket.ts makes and checks them before use. */
export function socketFolders(env: Env): string[] {
  const home = resolve(scvHome(env));
  const tag = `${process.getuid?.() ?? "user"}-${shortHash(home)}`;
  const folders: string[] = [];
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime !== undefined && isAbsolute(runtime)) folders.push(join(runtime, `scv-${shortHash(home)}`));
  const tmp = env.TMPDIR;
  if (tmp !== undefined && isAbsolute(tmp)) folders.push(join(tmp, `scv-${tag}`));
  folders.push(join("/tmp", `scv-${tag}`));
  return folders;
}

/** 8 hex digits of FNV-1a over `text`'s UTF-8: a short name, not a secret (every scv start loads this
 * file; node:crypto would cost it more than the hash is worth). */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, "utf8")) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

export function hostRecordPath(handle: string, env: Env): string {
  return join(hostsDir(env), `${handle}.json`);
}

/** Where a host's own output goes (a failure it could not tell a turn). */
export function hostLog(handle: string, env: Env): string {
  return join(hostsDir(env), `${handle}.log`);
}

/** The handles with a host record: one readdir, nothing read (every scv start looks). */
export function hostHandles(env: Env): string[] {
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
export function removeHostFiles(handle: string, env: Env): void {
  const socket = hostSocket(handle, env);
  if (socket !== undefined) removeIfPresent(socket);
  removeIfPresent(hostRecordPath(handle, env));
  removeIfPresent(hostLog(handle, env));
}
