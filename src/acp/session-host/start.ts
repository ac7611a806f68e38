// A turn's way to its conversation's session host: the live one, if it was started the same way
// (same executable, arguments, folder and environment) and answers within `helloLimit`
// (src/timing.ts); otherwise that one is ended and a new host is started (a detached scv, `scv session-host`, in a session of
// its own, its output in $SCV_HOME/hosts/<handle>.log) and connected to. Undefined when no host can
// be had (no usable socket path: host-socket.ts; a host that does not start): the turn then runs its server
// itself, as a cold turn, and nothing is kept warm.

import { createHash } from "node:crypto";
import { closeSync, lstatSync } from "node:fs";
import { hostname } from "node:os";
import { openOwnFileForAppend } from "../../home/agent-home.js";
import { hostLog } from "../../home/host-files.js";
import { ensureHostsDir, readHostRecord } from "../../home/host-records.js";
import { preparedHostSocket } from "../../home/host-socket.js";
import type { Env } from "../../home/paths.js";
import { newJob } from "../../home/turn-files.js";
import { createTurnTemp, removeTurnTemp } from "../../home/turn-temp.js";
import { isRunning } from "../../os/processes.js";
import { TAG_VARIABLE } from "../../os/tagged.js";
import { READY_FD, spawnDetached } from "../../process/helpers.js";
import { timing } from "../../timing.js";
import { DEFAULT_MAX_WARM_HOSTS, makeRoom } from "./budget.js";
import { connectSessionHost, type SessionHostConnection } from "./connect.js";
import { endSessionHost } from "./end-host.js";
import type { SessionHostSpec } from "./spec.js";

/** The variable naming the pipe a new host says "ready" on. */
export const HOST_READY_FD_VARIABLE = "SCV_READY_FD";
export const HOST_READY_WORD = "ready";

export interface SessionHostLaunch {
  readonly handle: string;
  readonly agent: string;
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The server's environment as the turn made it (its tag and TMPDIR are replaced by the host's). */
  readonly env: Readonly<Record<string, string>>;
  /** The turn's policy: a session left in the mode `auto` set is not one `default` may continue. */
  readonly policy: string;
  /** Whether TMPDIR is the user's choice for this agent (kept), rather than the turn's own. */
  readonly userTmp: boolean;
  readonly idleMs: number;
  /** `max_warm_hosts`: how many hosts may run at once (0: none is started). */
  readonly maxWarm?: number;
  readonly graceMs?: number;
  /** scv's own environment (SCV_HOME; the host inherits it, without the turn's tag). */
  readonly scvEnv: Env;
}

export async function reachSessionHost(
  launch: SessionHostLaunch,
): Promise<SessionHostConnection | undefined> {
  const env = launch.scvEnv;
  if (launch.maxWarm === 0) return undefined;
  const socket = preparedHostSocket(launch.handle, env);
  if (socket === undefined) return undefined;
  const fingerprint = launchHash(launch);
  const record = readHostRecord(launch.handle, env);
  if (record !== undefined && record.host === hostname()) {
    // Only a socket itself: nothing in $SCV_HOME is followed through a link.
    const isSocket = lstatSync(socket, { throwIfNoEntry: false })?.isSocket() === true;
    let stuck = false;
    if (record.launch === fingerprint && isSocket && isRunning(record.scv)) {
      const connection = await connectSessionHost(socket, timing("helloLimit"));
      if (connection !== undefined && connection !== "busy") return connection;
      // Busy: a connection this turn's lock says is over (its turn ended) still holds it. Ended
      // either way, rather than a second server of the session beside it: the next turn would find
      // that one's session without this turn's messages.
      stuck = connection === undefined;
    }
    // Dead, stuck, or started another way: ended, and its server with it.
    await endSessionHost(record, env, undefined, stuck);
  }
  return startHost(launch, fingerprint, socket);
}

async function startHost(
  launch: SessionHostLaunch,
  fingerprint: string,
  socket: string,
): Promise<SessionHostConnection | undefined> {
  const env = launch.scvEnv;
  const script = process.argv[1];
  if (script === undefined) return undefined;
  ensureHostsDir(env);
  const maxWarm = launch.maxWarm ?? DEFAULT_MAX_WARM_HOSTS;
  // Room for this one: the least recently used idle hosts are asked to end.
  makeRoom(maxWarm - 1, env, launch.handle);
  const tmp = launch.userTmp ? undefined : createTurnTemp(launch.handle, env);
  const spec: SessionHostSpec = {
    handle: launch.handle,
    agent: launch.agent,
    file: launch.file,
    args: [...launch.args],
    cwd: launch.cwd,
    env: { ...launch.env },
    tag: newJob(launch.handle),
    ...(tmp === undefined ? {} : { tmp }),
    launch: fingerprint,
    idleMs: launch.idleMs,
    maxWarm,
    ...(launch.graceMs === undefined ? {} : { graceMs: launch.graceMs }),
  };
  const { [TAG_VARIABLE]: _turn, ...scvEnv } = env;
  const log = openOwnFileForAppend(hostLog(launch.handle, env));
  let outcome: string;
  try {
    const host = await spawnDetached(process.execPath, [...process.execArgv, script, "session-host"], {
      env: { ...scvEnv, [HOST_READY_FD_VARIABLE]: String(READY_FD) },
      cwd: launch.cwd,
      output: log,
    });
    outcome = await host.hand({
      input: JSON.stringify(spec),
      readyWord: HOST_READY_WORD,
      readyWithinMs: timing("hostStartLimit"),
    });
  } finally {
    closeSync(log);
  }
  if (outcome !== "ready") {
    if (tmp !== undefined) removeTurnTemp(tmp);
    return undefined;
  }
  const connection = await connectSessionHost(socket, timing("hostStartLimit"));
  if (connection === undefined || connection === "busy") {
    const record = readHostRecord(launch.handle, env);
    if (record !== undefined) await endSessionHost(record, env, undefined, true);
    return undefined;
  }
  return connection;
}

/** The launch's hash: the executable, its arguments and folder, the policy, and the variables scv
 * set for the agent (its home, its key, the config's and --env's, the policy's) — not the turn's own
 * tag and TMPDIR, nor what passes through unchanged from scv's own environment: a turn from another
 * terminal or an MCP host (another SHELL, TERM, TMUX) continues on the same server, which keeps the
 * environment it started with. */
export function launchHash(launch: SessionHostLaunch): string {
  const { [TAG_VARIABLE]: _tag, TMPDIR: tmp, ...env } = launch.env;
  const kept: Record<string, string | undefined> = launch.userTmp ? { ...env, TMPDIR: tmp } : env;
  const own = Object.keys(kept)
    .filter((name) => launch.scvEnv[name] !== kept[name])
    .sort()
    .map((name) => [name, kept[name]]);
  return createHash("sha256")
    .update(JSON.stringify([launch.file, launch.args, launch.cwd, launch.policy, own]))
    .digest("hex");
}
