// A turn's connection to a session host, seen by the ACP client (acp/client/agent.ts) as the
// server's process: its stdin and stdout are the socket's two directions, its end the socket's
// close. The host speaks first, one line (`{"scvHost":{…}}`): the server's pid and the session it
// holds, or that another turn has it; its last line, when the server exits, carries the server's
// exit (code, signal, stderr's tail), so a failure is classified as for a process it ran itself.
// Ending the process ends only the connection: the host cancels a prompt left running.

import { connect, type Socket } from "node:net";
import { Writable } from "node:stream";
import { MAX_REPLY_BYTES } from "../../parsers/reply-lines.js";
import type { AgentProcess, ProcessExit, Termination } from "../../process/run.js";
import { createLineFramer } from "../../transport/framing.js";
import type { HeldSession } from "./relay.js";

/** The key of the host's own lines among the relayed JSON-RPC ones. */
export const HOST_LINE_KEY = "scvHost";

/** The longest line a host passes on, either way: the longest reply line scv reads from a process. */
export const HOST_LINE_MAX_BYTES = MAX_REPLY_BYTES;

export interface SessionHostLine {
  readonly version?: number;
  /** The server's pid (its process group's too). */
  readonly server?: number;
  readonly session?: HeldSession;
  /** Another turn is connected. */
  readonly busy?: boolean;
  /** The server exited: the connection ends after this. */
  readonly exit?: ProcessExit;
  /** The host ended this connection, and why (a line it would not pass on). */
  readonly refused?: string;
}

export interface SessionHostConnection {
  readonly hello: SessionHostLine;
  /** The connection as the server's process; what arrived after the hello goes to `onStdout`. */
  open(onStdout: (chunk: Buffer) => void): AgentProcess;
  close(): void;
}

/** Connects to the host listening at `path`; undefined when none answers within `withinMs`, "busy"
 * when another turn holds it. */
export async function connectSessionHost(
  path: string,
  withinMs: number,
): Promise<SessionHostConnection | "busy" | undefined> {
  const started = Date.now();
  const socket = connect(path);
  socket.on("error", () => socket.destroy());
  const early: string[] = [];
  let deliver: ((line: string) => void) | undefined;
  let exit: ProcessExit | undefined;
  let refused: string | undefined;
  let helloSeen: (hello: SessionHostLine | undefined) => void = () => {};
  const lines = createLineFramer({
    maxLineBytes: HOST_LINE_MAX_BYTES,
    onLine(line) {
      const own = hostLine(line);
      if (own !== undefined) {
        if (own.exit !== undefined) exit = own.exit;
        else if (own.refused !== undefined) refused = own.refused;
        else helloSeen(own);
        return;
      }
      if (deliver === undefined) early.push(line);
      else deliver(line);
    },
    // The host passes on no longer line: one is not from it.
    onOversized() {
      refused ??= `the session host sent a line of more than ${HOST_LINE_MAX_BYTES / 1024 / 1024} MiB`;
      socket.destroy();
    },
  });
  socket.on("data", (chunk: Buffer) => lines.push(chunk));
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));

  const hello = await new Promise<SessionHostLine | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), withinMs);
    helloSeen = (line) => {
      clearTimeout(timer);
      resolve(line);
    };
    void closed.then(() => helloSeen(undefined));
  });
  helloSeen = () => {};
  if (hello === undefined || hello.busy === true || hello.server === undefined) {
    socket.destroy();
    return hello?.busy === true ? "busy" : undefined;
  }

  return {
    hello,
    close: () => socket.destroy(),
    open(onStdout) {
      return socketProcess(socket, {
        pid: hello.server as number,
        closed,
        started,
        serverExit: () => exit,
        refused: () => refused,
        plug: (send) => {
          deliver = (line) => send(Buffer.from(`${line}\n`));
          for (const line of early.splice(0)) deliver(line);
        },
        onStdout,
      });
    },
  };
}

/** What the connection knows of the server behind it, as the turn's `AgentProcess` reads it. */
interface HostedServer {
  /** The server's pid, as the host's first line said. */
  readonly pid: number;
  /** Settles when the socket closes. */
  readonly closed: Promise<void>;
  /** When the connection began (ms since the epoch). */
  readonly started: number;
  /** The server's exit, once the host's last line said it. */
  readonly serverExit: () => ProcessExit | undefined;
  /** Why the host refused the turn, if it did. */
  readonly refused: () => string | undefined;
  /** Connects the server's lines to `send`, those that came early first. */
  readonly plug: (send: (chunk: Buffer) => void) => void;
  readonly onStdout: (chunk: Buffer) => void;
}

function socketProcess(
  socket: Socket,
  { pid, closed, started, serverExit, refused, plug, onStdout }: HostedServer,
): AgentProcess {
  let reason: Termination | undefined;
  let finished = false;
  const input = new Writable({
    write(chunk, _encoding, callback) {
      if (socket.destroyed) callback();
      else socket.write(chunk, () => callback());
    },
    final(callback) {
      finished = true;
      socket.end();
      callback();
    },
  });
  input.on("error", () => {});
  plug(onStdout);
  const done = closed.then((): ProcessExit => {
    const exit = serverExit();
    const durationMs = Date.now() - started;
    const termination = reason === undefined ? {} : { termination: reason };
    if (exit !== undefined) return { ...exit, ...termination, durationMs };
    const why = refused();
    if (why !== undefined) return { exitCode: null, signal: null, stderrTail: why, durationMs };
    // The turn left, and the host stays: nothing of the server ended.
    if (finished || reason !== undefined)
      return {
        exitCode: reason === undefined ? 0 : null,
        signal: null,
        stderrTail: "",
        durationMs,
        ...termination,
      };
    return {
      exitCode: null,
      signal: null,
      stderrTail: "the session host ended the connection without a word",
      durationMs,
    };
  });
  return {
    pid,
    input,
    done,
    get stopping() {
      return reason !== undefined;
    },
    terminate(why) {
      reason ??= why;
      socket.destroy();
    },
  };
}

function hostLine(line: string): SessionHostLine | undefined {
  if (!line.startsWith(`{"${HOST_LINE_KEY}"`)) return undefined;
  try {
    const value = JSON.parse(line) as Record<string, unknown>;
    const inner = value[HOST_LINE_KEY];
    return typeof inner === "object" && inner !== null ? (inner as SessionHostLine) : undefined;
  } catch {
    return undefined;
  }
}
