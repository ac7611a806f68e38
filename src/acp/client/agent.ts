// An ACP agent as a process scv talks JSON-RPC to, through the official SDK's connection: started
// like a turn's CLI (process.ts: its own process group, tracked, ended with its group), initialized
// within a time limit, then asked for sessions and prompts. Nothing here waits without a bound: every
// request races the agent's exit, and a prompt also its cancellation and time limit. Messages are
// handed on raw (the SDK's `*` handlers): acp/events/acp-parser.ts reads them leniently, where the SDK's typed
// handlers refuse a whole message over one field (an update kind newer than the SDK, a missing
// title).

import { Writable } from "node:stream";
import { client, ndJsonStream, PROTOCOL_VERSION, RequestError } from "@agentclientprotocol/sdk";
import { type AgentProcess, type ProcessExit, startProcess } from "../../process/run.js";
import { timing } from "../../timing.js";
import { AcpAgentError, describeExit } from "./agent-errors.js";
import { type PermissionAsk, type PermissionChoice, readPermissionAsk, rejectChoice } from "./permission.js";
import { delay, errorText, record, seconds, settle, stop } from "./waiting.js";

export interface AcpLaunch {
  /** The executable (an absolute path) and its arguments (`--acp`, `acp`, …). */
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The complete environment; nothing of scv's own is added. */
  readonly env: Readonly<Record<string, string>>;
  /** Names the agent in messages (its row's name). */
  readonly label: string;
  /** Limit on start-up: spawn to the `initialize` answer. */
  readonly initializeTimeoutMs?: number;
  /** Limit on each request other than a prompt (`session/new`, `session/load`, …). */
  readonly requestTimeoutMs?: number;
  /** Between SIGTERM and SIGKILL, and for the agent to exit once its stdin is closed. */
  readonly graceMs?: number;
  /** Asked for each `session/request_permission` outside a prompt's own handler; rejects by default. */
  readonly onPermission?: (ask: PermissionAsk) => Promise<PermissionChoice>;
  /** Notifications no running prompt takes (a mode change between turns, a load's replay). */
  readonly onNotification?: (method: string, params: unknown) => void;
  /** Called with the process id as soon as the agent is spawned, before `initialize` is answered. */
  readonly onSpawn?: (pid: number | undefined) => void;
  /** Aborting it before `start` returns ends the agent (a prompt takes its own signal). */
  readonly signal?: AbortSignal;
  /** The agent as a process already running elsewhere (a session host's connection: acp/session-host/connect.ts),
   * instead of one started from `file` and `args`. */
  readonly open?: (onStdout: (chunk: Buffer) => void) => AgentProcess;
}

export interface AgentInfo {
  readonly protocolVersion: number;
  /** It continues a conversation through `session/load`. */
  readonly loadSession: boolean;
  readonly name?: string;
  readonly version?: string;
  /** The `initialize` answer as the agent sent it. */
  readonly raw: Readonly<Record<string, unknown>>;
}

export interface PromptOptions {
  /** Each `session/update` of this session while the prompt runs, in arrival order. */
  readonly onUpdate?: (params: unknown) => void;
  /** This prompt's permission requests; `AcpLaunch.onPermission` otherwise. */
  readonly onPermission?: (ask: PermissionAsk) => Promise<PermissionChoice>;
  /** Aborting it sends `session/cancel`; the agent is ended if it does not answer within the grace. */
  readonly signal?: AbortSignal;
  /** Cancels the prompt, as `signal` does, when it passes. */
  readonly timeoutMs?: number;
  /** Cancels the prompt when the session sends nothing for this long (a permission question
   * waiting for its answer does not count). */
  readonly idleTimeoutMs?: number;
  /** How long a cancelled prompt may take to answer before the agent is ended (default 5 s). */
  readonly cancelGraceMs?: number;
}

/** Why scv stopped a prompt: cancelled, or one of its time limits. */
type PromptStop = "cancelled" | "timeout" | "idle-timeout";

/** How a prompt ended. `stopped`: scv cancelled it (or its time ran out) and the agent answered. */
export type PromptOutcome =
  | { readonly kind: "answered"; readonly result: unknown; readonly stopped?: PromptStop }
  | { readonly kind: "rejected"; readonly error: unknown; readonly stopped?: PromptStop }
  | {
      readonly kind: "ended";
      readonly reason: "exited" | PromptStop;
      readonly exit: ProcessExit;
      /** Why scv ended the agent when it was not the turn's stop (its output broke the protocol). */
      readonly cause?: string;
    };

/** A load's replay that goes on after its answer (a server does) is over once it has been quiet this long. */
const REPLAY_QUIET_MS = 50;
const REPLAY_MAX_MS = 2_000;

const CLIENT_CAPABILITIES = { fs: { readTextFile: false, writeTextFile: false }, terminal: false };

interface PromptRoute {
  readonly onUpdate?: (params: unknown) => void;
  /** Called on every message of the session while the prompt runs (the idle limit's clock). */
  readonly onActivity?: () => void;
  readonly onPermission?: (ask: PermissionAsk) => Promise<PermissionChoice>;
  /** Permission requests still waiting for an answer; a cancel answers them `cancelled`. */
  readonly waiting: Set<(choice: PermissionChoice) => void>;
}

type Connection = ReturnType<ReturnType<typeof client>["connect"]>;

export class AcpAgent {
  readonly info: AgentInfo;
  private readonly routes = new Map<string, PromptRoute>();
  private lastUpdate = new Map<string, number>();
  private closing: Promise<ProcessExit> | undefined;

  private constructor(
    private readonly launch: AcpLaunch,
    private readonly process: AgentProcess,
    private readonly connection: Connection,
    info: AgentInfo,
  ) {
    this.info = info;
  }

  /** Starts the agent and initializes it; throws an AcpAgentError (one line) when it cannot. */
  static async start(launch: AcpLaunch): Promise<AcpAgent> {
    let agent: AcpAgent | undefined;
    const early: { method: string; params: unknown }[] = [];
    const app = client({ name: "scv" })
      .onNotification("*", ({ method, params }) => {
        if (agent === undefined) early.push({ method, params });
        else agent.notification(method, params);
      })
      .onRequest("*", ({ method, params, signal }) => {
        if (method !== "session/request_permission") throw RequestError.methodNotFound(method);
        return agent === undefined ? { outcome: { outcome: "cancelled" } } : agent.permission(params, signal);
      });

    let output!: ReadableStreamDefaultController<Uint8Array>;
    // Closed by the process's end, or cancelled by the connection's: whichever comes first.
    let outputOpen = true;
    const stdout = new ReadableStream<Uint8Array>({
      start(controller) {
        output = controller;
      },
      cancel() {
        outputOpen = false;
      },
    });
    const onStdout = (chunk: Buffer) => {
      if (outputOpen) output.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length));
    };
    const process =
      launch.open?.(onStdout) ??
      startProcess({
        file: launch.file,
        args: launch.args,
        cwd: launch.cwd,
        env: launch.env,
        openStdin: true,
        graceMs: launch.graceMs ?? timing("killGrace"),
        onStdout,
      });
    void process.done.then(() => {
      if (outputOpen) output.close();
      outputOpen = false;
    });
    launch.onSpawn?.(process.pid);
    const onAbort = () => process.terminate("cancelled");
    if (launch.signal?.aborted) onAbort();
    launch.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      agent = await AcpAgent.initialize(launch, process, app, stdout);
    } finally {
      launch.signal?.removeEventListener("abort", onAbort);
    }
    for (const { method, params } of early) agent.notification(method, params);
    return agent;
  }

  private static async initialize(
    launch: AcpLaunch,
    process: AgentProcess,
    app: ReturnType<typeof client>,
    stdout: ReadableStream<Uint8Array>,
  ): Promise<AcpAgent> {
    if (process.pid === undefined || process.input === undefined) {
      const exit = await process.done;
      throw new AcpAgentError("spawn", `${launch.label} could not be started: ${describeExit(exit)}`, exit);
    }
    const connection = app.connect(
      ndJsonStream(Writable.toWeb(process.input) as WritableStream<Uint8Array>, stdout),
    );
    void process.done.then(() => connection.close());

    const answer = await settle(
      connection.agent.request("initialize", {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: CLIENT_CAPABILITIES,
        clientInfo: { name: "scv", version: "1" },
      }),
      process,
      launch.initializeTimeoutMs ?? timing("initializeLimit"),
    );
    if (answer.kind !== "value") {
      const exit = await stop(process, answer.kind === "timeout" ? "timeout" : "cancelled");
      const what =
        answer.kind === "timeout"
          ? `did not answer ACP initialize within ${seconds(launch.initializeTimeoutMs ?? timing("initializeLimit"))}`
          : answer.kind === "exit"
            ? answer.cause === undefined
              ? `exited before answering ACP initialize: ${describeExit(exit)}`
              : `was ended by scv before it answered ACP initialize: ${answer.cause}`
            : `refused ACP initialize: ${errorText(answer.error)}`;
      throw new AcpAgentError(
        answer.kind === "timeout" ? "initialize-timeout" : "initialize",
        `${launch.label} ${what}`,
        exit,
      );
    }
    const raw = record(answer.value);
    const version = raw.protocolVersion;
    if (version !== PROTOCOL_VERSION) {
      const exit = await stop(process, "cancelled");
      throw new AcpAgentError(
        "protocol",
        `${launch.label} speaks ACP protocol version ${JSON.stringify(version)}; scv speaks ${PROTOCOL_VERSION}`,
        exit,
      );
    }
    const agentInfo = record(raw.agentInfo);
    return new AcpAgent(launch, process, connection, {
      protocolVersion: version,
      loadSession: record(raw.agentCapabilities).loadSession === true,
      ...(typeof agentInfo.name === "string" ? { name: agentInfo.name } : {}),
      ...(typeof agentInfo.version === "string" ? { version: agentInfo.version } : {}),
      raw,
    });
  }

  /** The process id, which is also its group's. */
  get pid(): number | undefined {
    return this.process.pid;
  }

  /** Resolves when the agent's process has ended and its group is gone. */
  get exited(): Promise<ProcessExit> {
    return this.process.done;
  }

  /** `session/new` in `cwd`; its answer as the agent sent it (sessionId, modes, models, configOptions). */
  async newSession(cwd: string, mcpServers: readonly unknown[] = []): Promise<SessionAnswer> {
    const answer = record(await this.request("session/new", { cwd, mcpServers }));
    if (typeof answer.sessionId !== "string" || answer.sessionId === "")
      throw new AcpAgentError("protocol", `${this.launch.label} answered session/new without a session id`);
    return { sessionId: answer.sessionId, raw: answer };
  }

  /** `session/load` of an earlier session; waits out a replay the agent sends after its answer. */
  async loadSession(
    sessionId: string,
    cwd: string,
    mcpServers: readonly unknown[] = [],
  ): Promise<SessionAnswer> {
    if (!this.info.loadSession)
      throw new AcpAgentError(
        "unsupported",
        `${this.launch.label} cannot continue a session it is not running (no loadSession)`,
      );
    const answer = record(await this.request("session/load", { sessionId, cwd, mcpServers }));
    const started = Date.now();
    for (;;) {
      const quietFor = Date.now() - (this.lastUpdate.get(sessionId) ?? 0);
      if (quietFor >= REPLAY_QUIET_MS || Date.now() - started >= REPLAY_MAX_MS) break;
      await delay(REPLAY_QUIET_MS - quietFor);
    }
    return { sessionId, raw: answer };
  }

  /** Any other request (`session/set_mode`, `session/set_config_option`, …), within the request limit. */
  request(method: string, params: Record<string, unknown>): Promise<unknown> {
    return this.bounded(method, this.connection.agent.request(method, params));
  }

  /** `session/prompt` with one text block; never rejects (see PromptOutcome). */
  async prompt(sessionId: string, text: string, options: PromptOptions = {}): Promise<PromptOutcome> {
    if (this.routes.has(sessionId))
      throw new AcpAgentError(
        "busy",
        `${this.launch.label} is already running a prompt in session ${sessionId}`,
      );
    let idle: NodeJS.Timeout | undefined;
    const route: PromptRoute = { ...options, waiting: new Set(), onActivity: () => idle?.refresh() };
    this.routes.set(sessionId, route);
    let stopped: PromptStop | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    const stop = (reason: PromptStop) => {
      if (stopped !== undefined) return;
      stopped = reason;
      void this.connection.agent.notify("session/cancel", { sessionId }).catch(() => {});
      for (const answer of route.waiting) answer("cancelled");
      killTimer = setTimeout(
        () => this.process.terminate(reason),
        options.cancelGraceMs ?? timing("cancelGrace"),
      ).unref();
    };
    const onAbort = () => stop("cancelled");
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => stop("timeout"), options.timeoutMs).unref();
    if (options.idleTimeoutMs !== undefined) {
      const idleMs = options.idleTimeoutMs;
      idle = setTimeout(() => {
        if (route.waiting.size > 0) idle?.refresh();
        else stop("idle-timeout");
      }, idleMs).unref();
    }
    try {
      const answer = await settle(
        this.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] }),
        this.process,
      );
      const how = stopped === undefined ? {} : { stopped };
      if (answer.kind === "value") return { kind: "answered", result: answer.value, ...how };
      if (answer.kind === "error" && !this.process.stopping)
        return { kind: "rejected", error: answer.error, ...how };
      const exit = await this.process.done;
      const cause = answer.kind === "exit" ? answer.cause : undefined;
      return { kind: "ended", reason: stopped ?? "exited", exit, ...(cause === undefined ? {} : { cause }) };
    } finally {
      clearTimeout(timer);
      clearTimeout(idle);
      clearTimeout(killTimer);
      options.signal?.removeEventListener("abort", onAbort);
      this.routes.delete(sessionId);
    }
  }

  /** Closes stdin (an ACP agent exits at its end), then ends the group after `graceMs` (default:
   * the launch's grace period). */
  close(graceMs = this.launch.graceMs ?? timing("killGrace")): Promise<ProcessExit> {
    this.closing ??= (async () => {
      this.process.input?.end();
      const timer = setTimeout(() => this.process.terminate("cancelled"), graceMs).unref();
      const exit = await this.process.done;
      clearTimeout(timer);
      this.connection.close();
      return exit;
    })();
    return this.closing;
  }

  /** Ends the agent's process group now. */
  kill(): Promise<ProcessExit> {
    this.process.terminate("cancelled");
    return this.process.done;
  }

  private notification(method: string, params: unknown): void {
    if (method === "session/update") {
      const sessionId = record(params).sessionId;
      if (typeof sessionId === "string") {
        this.lastUpdate.set(sessionId, Date.now());
        const route = this.routes.get(sessionId);
        route?.onActivity?.();
        if (route?.onUpdate !== undefined) {
          route.onUpdate(params);
          return;
        }
      }
    }
    this.launch.onNotification?.(method, params);
  }

  private async permission(params: unknown, signal: AbortSignal): Promise<unknown> {
    const ask = readPermissionAsk(params);
    if (ask === undefined) throw RequestError.invalidParams(undefined, "not a permission request");
    const route = this.routes.get(ask.sessionId);
    route?.onActivity?.();
    const decide =
      route?.onPermission ?? this.launch.onPermission ?? (async (a: PermissionAsk) => rejectChoice(a));
    const choice = await new Promise<PermissionChoice>((resolve) => {
      const answer = (value: PermissionChoice) => {
        route?.waiting.delete(answer);
        resolve(value);
      };
      route?.waiting.add(answer);
      signal.addEventListener("abort", () => answer("cancelled"), { once: true });
      decide(ask).then(answer, () => answer(rejectChoice(ask)));
    });
    // The time a question waited for its answer is not the agent's silence.
    route?.onActivity?.();
    return choice === "cancelled"
      ? { outcome: { outcome: "cancelled" } }
      : { outcome: { outcome: "selected", optionId: choice.optionId } };
  }

  private async bounded<T>(method: string, request: Promise<T>): Promise<T> {
    const limit = this.launch.requestTimeoutMs ?? timing("requestLimit");
    const answer = await settle(request, this.process, limit);
    if (answer.kind === "value") return answer.value;
    const label = this.launch.label;
    if (answer.kind === "error")
      throw new AcpAgentError(
        "request",
        `${label} refused ${method}: ${errorText(answer.error)}`,
        undefined,
        answer.error,
      );
    if (answer.kind === "timeout") {
      const exit = await stop(this.process, "timeout");
      throw new AcpAgentError("timeout", `${label} did not answer ${method} within ${seconds(limit)}`, exit);
    }
    const exit = await this.process.done;
    throw new AcpAgentError(
      "exited",
      answer.cause === undefined
        ? `${label} exited before answering ${method}: ${describeExit(exit)}`
        : `scv ended ${label} before it answered ${method}: ${answer.cause}`,
      exit,
    );
  }
}

export interface SessionAnswer {
  readonly sessionId: string;
  /** The answer as the agent sent it: `modes`, `models`, `configOptions`, `_meta`. */
  readonly raw: Readonly<Record<string, unknown>>;
}
