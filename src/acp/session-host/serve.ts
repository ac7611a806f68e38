// A session host: the detached scv (`scv session-host`, started by acp/session-host/start.ts) that keeps one
// conversation's ACP server running between its turns. It starts the server as a turn would (the
// turn's environment, with the host's own tag and TMPDIR, in its own process group, ended with the
// host), listens on $SCV_HOME/hosts/<handle>.sock (or a short private folder's: home/host-socket.ts), and passes each connected turn's JSON-RPC to the
// server and back (acp/session-host/relay.ts), one turn at a time. It ends, and the server with it, when:
// the server exits; a turn leaves without a session made or without a conversation record (nothing to
// keep warm, or nothing to continue it: a refused or killed first turn); a turn left a
// prompt that does not answer its cancel in time; no turn came for `idleMs`; it gets SIGTERM
// (`scv kill <handle>`), or SIGUSR2 while no turn is connected (room for another: budget.ts); or its
// socket is gone ($SCV_HOME removed, or another host took the name).

import { lstatSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { hostname } from "node:os";
import { isWaitable } from "../../duration.js";
import { ScvError } from "../../errors.js";
import { recordExists } from "../../home/conversations.js";
import { removeHostFiles } from "../../home/host-files.js";
import { ensureHostsDir, type HostRecord, readHostRecord, writeHostRecord } from "../../home/host-records.js";
import { preparedHostSocket } from "../../home/host-socket.js";
import type { Env } from "../../home/paths.js";
import { removeIfPresent } from "../../home/remove.js";
import { turnOwnerAlive } from "../../home/turn-owner.js";
import { readRunning } from "../../home/turn-records.js";
import { removeTurnTemp } from "../../home/turn-temp.js";
import { bootId } from "../../os/proc.js";
import { identify, systemProcessTable } from "../../os/processes.js";
import { killTagged, TAG_VARIABLE } from "../../os/tagged.js";
import { handleSignals } from "../../process/lifecycle.js";
import { type AgentProcess, startProcess } from "../../process/run.js";
import { isoTimestamp } from "../../timestamp.js";
import { timing } from "../../timing.js";
import { createLineFramer, type LineFramer } from "../../transport/framing.js";
import { DEFAULT_MAX_WARM_HOSTS, EVICT_SIGNAL, makeRoom } from "./budget.js";
import { HOST_LINE_KEY, HOST_LINE_MAX_BYTES, type SessionHostLine } from "./connect.js";
import { type RelayLink, SessionHostRelay } from "./relay.js";
import type { SessionHostSpec } from "./spec.js";

/** Runs the host until it ends; `ready` is called once it listens. */
export async function serveSessionHost(spec: SessionHostSpec, env: Env, ready: () => void): Promise<void> {
  const path = socketPath(spec, env);
  const graceMs = spec.graceMs ?? timing("killGrace");
  const output = boundedLines(
    (line) => relay.fromServer(line),
    // The turn waiting for it would wait forever: the server is ended, and the turn told why.
    () =>
      void end(
        undefined,
        `the session host ended ${spec.agent}'s ACP server: it wrote a line of more than ${HOST_LINE_MAX_BYTES / 1024 / 1024} MiB, which scv does not pass on`,
      ),
  );
  const server = startServer(spec, graceMs, (chunk) => output.push(chunk));
  const relay = new SessionHostRelay(
    (line) => server.input?.write(`${line}\n`),
    () => save(),
  );

  let record = firstRecord(spec, server);
  function save(changes: Partial<HostRecord> = {}): void {
    if (record === undefined || ending) return;
    const session = relay.session?.id;
    record = { ...record, ...changes, ...(session === undefined ? {} : { session }) };
    try {
      writeHostRecord(record, env);
    } catch {
      // Only scv ps and the next turn read it; a turn that finds none starts its own server.
    }
  }

  let ending = false;
  let link: (RelayLink & { socket: Socket }) | undefined;
  let idle: NodeJS.Timeout | undefined;
  let leftPrompt: NodeJS.Timeout | undefined;
  let watch: NodeJS.Timeout | undefined;
  let ended!: () => void;
  const finished = new Promise<void>((resolve) => {
    ended = resolve;
  });

  const listener: Server = createServer((socket) => accept(socket));
  /** Ends the host and its server; `note` says why scv ended the server (the turn gets it as the
   * last line of the server's stderr, and so does the host's log). */
  const end = async (exitLine?: SessionHostLine, note?: string) => {
    if (ending) return;
    ending = true;
    if (note !== undefined) process.stderr.write(`scv: ${note}\n`);
    clearTimeout(idle);
    clearTimeout(leftPrompt);
    clearInterval(watch);
    listener.close();
    // Only this host's files: a later host may have taken the name after this one's socket went.
    const current = readHostRecord(spec.handle, env);
    if (current === undefined || current.scv.pid === process.pid) removeHostFiles(spec.handle, env);
    server.input?.end();
    const kill = setTimeout(() => server.terminate("cancelled"), graceMs);
    const exit = await server.done;
    clearTimeout(kill);
    if (link !== undefined) {
      const told = note === undefined ? exit : { ...exit, stderrTail: `${exit.stderrTail}\n${note}\n` };
      link.socket.end(`${JSON.stringify({ [HOST_LINE_KEY]: exitLine ?? { exit: told } })}\n`);
    }
    killTagged(spec.tag, systemProcessTable);
    if (spec.tmp !== undefined) removeTurnTemp(spec.tmp);
    ended();
  };

  /** Nothing to continue: the turn that left made no conversation record (a first turn refused, its
   * scv killed), whatever the reason. The turn closes its connection before it records the
   * conversation, so the record is looked for once the turn is over: its registration gone, or its
   * scv dead. */
  const endUnlessRecorded = async () => {
    const deadline = Date.now() + timing("hostRecordWait");
    const waiting = () => !ending && link === undefined && !recordExists(spec.handle, env);
    while (waiting() && turnRunning(spec.handle, env) && Date.now() < deadline) await pause(50);
    if (waiting()) await end();
  };

  const restartIdle = () => {
    clearTimeout(idle);
    if (isWaitable(spec.idleMs)) idle = setTimeout(() => void end(), spec.idleMs);
  };

  function accept(socket: Socket, waited = 0): void {
    // A turn that gave up waiting.
    if (socket.destroyed) return;
    // The turn before may have left a moment ago, its close not yet seen here.
    if (!ending && link !== undefined && waited < timing("hostBusyWait")) {
      setTimeout(() => accept(socket, waited + 25), 25);
      return;
    }
    if (ending || link !== undefined) {
      socket.end(`${JSON.stringify({ [HOST_LINE_KEY]: { busy: true } })}\n`);
      return;
    }
    clearTimeout(idle);
    clearTimeout(leftPrompt);
    const own = { socket, send: (line: string) => socket.write(`${line}\n`) };
    link = own;
    relay.attach(own);
    save({ inUse: true });
    let refusing = false;
    const input = boundedLines(
      (line) => {
        if (!refusing) relay.fromClient(own, line);
      },
      // Dropped: the turn is told, and its connection ended (what it had asked is cancelled).
      () => {
        refusing = true;
        const refused = `the session host refused a line of more than ${HOST_LINE_MAX_BYTES / 1024 / 1024} MiB from this turn`;
        socket.end(`${JSON.stringify({ [HOST_LINE_KEY]: { refused } })}\n`);
      },
    );
    socket.on("data", (chunk: Buffer) => input.push(chunk));
    socket.on("error", () => socket.destroy());
    socket.on("close", () => {
      if (link !== own) return;
      link = undefined;
      relay.detach(own);
      if (ending) return;
      save({ inUse: false, usedAt: isoTimestamp() });
      // Nothing to keep warm: the turn failed before the server made a session.
      if (!relay.ready || relay.session === undefined) {
        void end();
        return;
      }
      if (relay.prompting > 0)
        leftPrompt = setTimeout(() => {
          if (relay.prompting > 0) void end();
        }, timing("leftPromptGrace"));
      restartIdle();
      void endUnlessRecorded();
      // Over the budget: the least recently used idle hosts are asked to end (this one too, if so).
      makeRoom(spec.maxWarm ?? DEFAULT_MAX_WARM_HOSTS, env);
    });
    const hello: SessionHostLine = {
      version: 1,
      ...(server.pid === undefined ? {} : { server: server.pid }),
      ...(relay.session === undefined ? {} : { session: relay.session }),
    };
    socket.write(`${JSON.stringify({ [HOST_LINE_KEY]: hello })}\n`);
  }

  void server.done.then((exit) => end({ exit }));
  const stopHandling = handleSignals(["SIGINT", "SIGTERM", "SIGHUP"], () => void end());
  // Asked to make room (acp/session-host/budget.ts): only when no turn is connected.
  const onEvict = () => {
    if (link === undefined) void end();
  };
  const stopEvicting = handleSignals([EVICT_SIGNAL], onEvict);

  await new Promise<void>((resolve, reject) => {
    listener.once("error", reject);
    listener.listen(path, () => {
      listener.off("error", reject);
      resolve();
    });
  }).catch(async (error: unknown) => {
    await end();
    throw error;
  });
  const socketInode = lstatSync(path, { throwIfNoEntry: false })?.ino;
  watch = setInterval(() => {
    if (lstatSync(path, { throwIfNoEntry: false })?.ino !== socketInode) void end();
  }, timing("hostSocketCheck"));
  watch.unref();
  save();
  restartIdle();
  ready();
  try {
    await finished;
  } finally {
    stopEvicting();
    stopHandling();
  }
}

/** The host's socket path, its folder made; a stale socket there (its host was ended by the turn
 * that started this one) removed. */
function socketPath(spec: SessionHostSpec, env: Env): string {
  ensureHostsDir(env);
  const path = preparedHostSocket(spec.handle, env);
  // The starter found one a moment ago; one taken meanwhile (another user's, a link) is one line in
  // the host's log, not an internal error.
  if (path === undefined)
    throw new ScvError(
      "IO",
      `no private folder for ${spec.handle}'s socket — its turns run without a warm host`,
    );
  const stale = lstatSync(path, { throwIfNoEntry: false });
  // Only a socket is replaced.
  if (stale?.isSocket()) removeIfPresent(path);
  else if (stale !== undefined)
    throw new ScvError(
      "IO",
      `${path} is not a socket — remove it; meanwhile its turns run without a warm host`,
    );
  return path;
}

/** The conversation's ACP server, started as the turn would: the turn's environment with the host's
 * own tag and TMPDIR, in its own process group, its stdin left open. */
function startServer(
  spec: SessionHostSpec,
  graceMs: number,
  onStdout: (chunk: Buffer) => void,
): AgentProcess {
  const serverEnv: Record<string, string> = { ...spec.env, [TAG_VARIABLE]: spec.tag };
  if (spec.tmp !== undefined) serverEnv.TMPDIR = spec.tmp;
  return startProcess({
    file: spec.file,
    args: spec.args,
    cwd: spec.cwd,
    env: serverEnv,
    openStdin: true,
    graceMs,
    onStdout,
  });
}

/** The host's record as it starts; undefined when scv cannot tell its own identity (nobody could
 * tell later whether this host lives). */
function firstRecord(spec: SessionHostSpec, server: AgentProcess): HostRecord | undefined {
  const me = identify(process.pid);
  if (me === undefined) return undefined;
  const serverIdentity = server.pid === undefined ? undefined : identify(server.pid);
  const now = isoTimestamp();
  return {
    version: 1,
    handle: spec.handle,
    agent: spec.agent,
    host: hostname(),
    ...(bootId() === undefined ? {} : { boot: bootId() }),
    scv: me,
    ...(serverIdentity === undefined ? {} : { server: serverIdentity }),
    tag: spec.tag,
    ...(spec.tmp === undefined ? {} : { tmp: spec.tmp }),
    launch: spec.launch,
    startedAt: now,
    usedAt: now,
    idleMs: spec.idleMs,
    inUse: false,
  };
}

/** Whether a turn of the conversation is registered and its scv alive. */
function turnRunning(handle: string, env: Env): boolean {
  const running = readRunning(handle, env);
  return running !== undefined && turnOwnerAlive(running);
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Newline-delimited text, line by line whatever the chunks, each line bounded
 * (transport/framing.ts): `onOversized` once a line passes HOST_LINE_MAX_BYTES, which is dropped. */
function boundedLines(onLine: (line: string) => void, onOversized: () => void): LineFramer {
  return createLineFramer({
    maxLineBytes: HOST_LINE_MAX_BYTES,
    onLine: (line) => {
      if (line.trim() !== "") onLine(line);
    },
    onOversized,
  });
}
