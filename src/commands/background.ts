// Background turns: `scv delegate --background …` starts each turn in a detached scv (its own
// session, stdio to $SCV_HOME/turns/<handle>.log) and prints the handle once the agent runs;
// `scv wait` prints results as the foreground would, `scv ps` lists running turns, `scv kill` stops
// one. The detached scv is this module's `background-turn` command: it reads its turn as JSON on
// stdin, says "started" on the pipe named by SCV_READY_FD, and keeps the result in
// $SCV_HOME/turns/<handle>.done.json until `scv wait` reads it.

import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, fstatSync, readFileSync, writeSync } from "node:fs";
import { Readable } from "node:stream";
import * as z from "zod/mini";
import { withInterrupts } from "../cli/interrupts.js";
import type { CliIo } from "../cli/io.js";
import { type Config, loadConfig } from "../config.js";
import { durationOption, formatDuration } from "../duration.js";
import { EXIT, ScvError } from "../errors.js";
import { ensureScvDir, openOwnFileForAppend } from "../home/agent-home.js";
import { HANDLE_PATTERN } from "../home/conversations.js";
import {
  consumeResult,
  killTurn,
  listRunning,
  readFinished,
  readRunning,
  reapHandle,
  saveBackgroundResult,
  TAG_VARIABLE,
  turnOwnerAlive,
} from "../home/running.js";
import { turnFile } from "../home/turn-files.js";
import { lazy } from "../lazy.js";
import type { TurnResult } from "../result.js";
import { failedResult, runTurn, type TurnRequest } from "../transport/turn.js";
import { type DelegateOptions, print } from "./delegate.js";
import { planTurns, printSection, reportFailures } from "./fanout.js";
import { renderTable } from "./table.js";

/** The environment variable naming the detached scv's "started" pipe. */
const READY_FD_VARIABLE = "SCV_READY_FD";
const READY_FD = 3;
/** How often `scv wait` looks. */
const POLL_MS = 100;

const jobSchema = lazy(() =>
  z.object({
    handle: z.string().check(z.regex(HANDLE_PATTERN)),
    request: z.object({
      agent: z.optional(z.string()),
      continue: z.optional(z.string()),
      handle: z.optional(z.string()),
      prompt: z.string(),
      model: z.optional(z.string()),
      effort: z.optional(z.string()),
      policy: z.optional(z.enum(["auto", "default"])),
      cwd: z.optional(z.string()),
      timeoutMs: z.optional(z.number()),
      idleTimeoutMs: z.optional(z.number()),
      env: z.optional(z.record(z.string(), z.string())),
    }),
    lockWaitMs: z.optional(z.number()),
  }),
);
type Job = z.infer<ReturnType<typeof jobSchema>>;

interface Launch {
  readonly handle: string | undefined;
  readonly agent: string;
  readonly started: boolean;
  /** Why it did not start. */
  readonly result?: TurnResult;
}

export async function startBackgroundTurns(
  io: CliIo,
  requests: readonly TurnRequest[],
  config: Config,
  options: DelegateOptions,
): Promise<number> {
  if (options.events) {
    throw new ScvError(
      "USAGE",
      "--events streams a turn while it runs in the foreground — drop it with --background and read the result with scv wait",
    );
  }
  const lockWaitMs = durationOption("SCV_LOCK_WAIT", io.env.SCV_LOCK_WAIT, { allowZero: true });
  const planned = planTurns(requests, { env: io.env, cwd: io.cwd, config });
  const launches = await Promise.all(
    planned.map((turn): Promise<Launch> | Launch => {
      if (turn.kind === "failed")
        return { handle: undefined, agent: turn.agent, started: false, result: turn.result };
      const { plan, request } = turn;
      // Refused at once rather than after the lock wait: its handle, log and result are taken.
      const running = readRunning(plan.handle, io.env);
      if (running !== undefined && turnOwnerAlive(running)) {
        const busy = new ScvError(
          "CONVERSATION_BUSY",
          running.background
            ? `conversation busy — a turn of ${plan.handle} is running; wait for it (scv wait ${plan.handle}) or stop it (scv kill ${plan.handle})`
            : `conversation busy — a turn of ${plan.handle} is running in the foreground (scv pid ${running.scv.pid}); continue it once that ends, or stop it (scv kill ${plan.handle})`,
        );
        return {
          handle: plan.handle,
          agent: plan.entry.name,
          started: false,
          result: failedResult(busy, plan.entry.name),
        };
      }
      // The minted handle (in the request) and the launcher's cwd: the detached scv plans the same turn.
      const job = { handle: plan.handle, request: { ...request, cwd: plan.cwd }, lockWaitMs };
      return launch(io, job, plan.entry.name);
    }),
  );

  if (options.json) {
    const rows = launches.map((each) => ({
      handle: each.handle ?? null,
      agent: each.agent,
      started: each.started,
      ...(each.result === undefined ? {} : { result: each.result }),
    }));
    io.stdout.write(`${JSON.stringify(rows.length === 1 ? rows[0] : rows)}\n`);
  }
  for (const each of launches) {
    if (each.started && !options.json) io.stdout.write(`${each.handle}\n`);
    if (!each.started && each.result !== undefined) {
      const who = each.handle === undefined ? each.agent : `${each.agent} (${each.handle})`;
      io.stderr.write(`scv: ${who} did not start: ${lineOf(each.result)}\n`);
    }
  }
  if (!options.quiet && launches.some((each) => each.started)) {
    io.stderr.write("started in the background — results: scv wait <handle>…, running turns: scv ps\n");
  }
  return launches.find((each) => !each.started)?.result?.exitCode ?? EXIT.ok;
}

/** Starts one detached scv and waits until its agent runs, or until it ends without running it. */
async function launch(io: CliIo, job: Job, agent: string): Promise<Launch> {
  ensureScvDir(io.env, "turns");
  const logPath = turnFile(job.handle, "log", io.env);
  const log = openOwnFileForAppend(logPath);
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, [...process.execArgv, scvScript(), "background-turn"], {
      cwd: io.cwd,
      env: backgroundEnv(io.env),
      // Its own session: a closing terminal or a Ctrl-C in it does not reach the turn.
      detached: true,
      stdio: ["pipe", log, log, "pipe"],
    });
  } finally {
    closeSync(log);
  }
  // A detached scv that dies before reading its turn must not take the launcher with it (EPIPE).
  child.stdin?.on("error", () => {});
  child.stdin?.end(JSON.stringify(job));
  const started = await startedOrEnded(child);
  child.unref();
  child.stdio[READY_FD]?.destroy();
  if (started) return { handle: job.handle, agent, started: true };

  const finished = readFinished(job.handle, io.env);
  // (A turn that ran without saying so still has its result kept for scv wait.)
  if (finished !== undefined && finished.result.exitCode === EXIT.ok) {
    return { handle: job.handle, agent, started: true };
  }
  if (finished !== undefined) {
    consumeResult(job.handle, io.env);
    return { handle: job.handle, agent, started: false, result: finished.result };
  }
  const last = lastLine(logPath);
  const error = new ScvError(
    "AGENT_FAILED",
    `the background scv ended before its turn started${last === undefined ? "" : `: ${last}`} — see ${logPath}`,
  );
  return { handle: job.handle, agent, started: false, result: failedResult(error, agent) };
}

/** The detached scv's environment: the launcher's, with the ready pipe named, and without the tag of
 * the turn whose agent launched it (SCV_DEPTH stays). A background turn is asked to outlive its
 * caller; with the tag, that turn's end would sweep it as an escaped process. It has a record and a
 * tag of its own. */
function backgroundEnv(env: CliIo["env"]): NodeJS.ProcessEnv {
  const { [TAG_VARIABLE]: _callerTurn, ...rest } = env;
  return { ...rest, [READY_FD_VARIABLE]: String(READY_FD) };
}

/** The script this scv runs from, for starting another. */
function scvScript(): string {
  const script = process.argv[1];
  if (script === undefined)
    throw new ScvError("USAGE", "cannot tell where scv runs from — start scv by its path");
  return script;
}

/** True once the detached scv says "started"; false when its pipe closes without (it ended). */
function startedOrEnded(child: ChildProcess): Promise<boolean> {
  return new Promise((resolve) => {
    const ready = child.stdio[READY_FD];
    if (!(ready instanceof Readable)) {
      resolve(false);
      return;
    }
    let text = "";
    ready.setEncoding("utf8");
    ready.on("data", (chunk: string) => {
      text += chunk;
      if (text.includes("started")) resolve(true);
    });
    ready.on("close", () => resolve(text.includes("started")));
    ready.on("error", () => resolve(false));
    child.on("error", () => resolve(false));
  });
}

function lastLine(path: string): string | undefined {
  try {
    const lines = readFileSync(path, "utf8").trim().split("\n");
    return lines.at(-1)?.replace(/^scv: /, "") || undefined;
  } catch {
    return undefined;
  }
}

function lineOf(result: TurnResult): string {
  if (result.error === null) return `exit ${result.exitCode}`;
  return result.hint === null ? result.error : `${result.error} — ${result.hint}`;
}

/** The detached scv of one background turn (hidden command `background-turn`). */
export async function backgroundTurnCommand(io: CliIo): Promise<number> {
  const startedAt = new Date();
  const job = parseJob(await readAll(io.stdin));
  const ready = readyPipe(io.env[READY_FD_VARIABLE]);
  let result: TurnResult;
  try {
    const config = loadConfig(io.env).config;
    result = await withInterrupts(io, (signal) =>
      runTurn(job.request, {
        env: io.env,
        cwd: io.cwd,
        config,
        signal,
        lockWaitMs: job.lockWaitMs,
        background: { onStarted: ready.started },
      }),
    );
  } catch (error) {
    const agent = job.request.agent;
    if (error instanceof ScvError) result = failedResult(error, agent);
    else {
      // The log keeps the stack; the result says where it is.
      io.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      const logPath = turnFile(job.handle, "log", io.env);
      result = failedResult(
        new ScvError(
          "AGENT_FAILED",
          `internal error in the background turn — please report it with ${logPath}`,
        ),
        agent,
      );
    }
  }
  saveBackgroundResult(job.handle, result, startedAt, io.env);
  ready.close();
  return result.exitCode;
}

function parseJob(text: string): Job {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const parsed = jobSchema().safeParse(value);
  if (!parsed.success) {
    throw new ScvError("USAGE", "background-turn runs the turns of scv delegate --background — use that");
  }
  return parsed.data;
}

/** The pipe the launcher waits on; nothing when scv was not started by a launcher. */
function readyPipe(fdText: string | undefined): { started: () => void; close: () => void } {
  let fd: number | undefined = fdText === String(READY_FD) ? READY_FD : undefined;
  try {
    // Node's "pipe" is a socket pair.
    const stat = fd === undefined ? undefined : fstatSync(fd);
    if (stat !== undefined && !stat.isSocket() && !stat.isFIFO()) fd = undefined;
  } catch {
    fd = undefined;
  }
  const close = () => {
    if (fd === undefined) return;
    try {
      closeSync(fd);
    } catch {
      // The launcher is gone; nobody listens.
    }
    fd = undefined;
  };
  return {
    started: () => {
      if (fd === undefined) return;
      try {
        writeSync(fd, "started\n");
      } catch {
        // As above.
      }
      close();
    },
    close,
  };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}

// --- scv wait -----------------------------------------------------------------------------------

export interface WaitOptions {
  readonly timeout?: string;
  readonly json?: boolean;
  readonly quiet?: boolean;
}

export async function waitCommand(
  io: CliIo,
  handles: readonly string[],
  options: WaitOptions = {},
): Promise<number> {
  const timeoutMs = durationOption("--timeout", options.timeout);
  const wanted = [...new Set(handles)];
  for (const handle of wanted) {
    checkHandle(handle);
    const running = readRunning(handle, io.env);
    if (running === undefined && readFinished(handle, io.env) === undefined) {
      throw new ScvError("USAGE", `no turn ${handle} — scv ps lists running turns`);
    }
    if (running !== undefined && !running.background && turnOwnerAlive(running)) {
      throw new ScvError(
        "USAGE",
        `${handle} runs in the foreground of scv pid ${running.scv.pid}, which prints its result — only --background turns can be waited for`,
      );
    }
  }

  const results = new Map<string, TurnResult>();
  const deadline = timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
  for (;;) {
    for (const handle of wanted) {
      if (results.has(handle)) continue;
      const result = await settled(handle, io.env);
      if (result !== undefined) results.set(handle, result);
    }
    if (results.size === wanted.length) break;
    if (Date.now() >= deadline) {
      const still = wanted.filter((handle) => !results.has(handle));
      throw new ScvError(
        "TURN_TIMEOUT",
        `still running after ${formatDuration(timeoutMs ?? 0)}: ${still.join(", ")} — wait again later, or stop one: scv kill <handle>`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }

  const ordered = wanted.map((handle) => results.get(handle) as TurnResult);
  if (ordered.length === 1 && ordered[0] !== undefined) {
    print(io, ordered[0], { json: options.json, quiet: options.quiet });
  } else if (options.json) {
    io.stdout.write(`${JSON.stringify(ordered)}\n`);
  } else {
    for (const [index, result] of ordered.entries()) printSection(io, undefined, result, index);
    reportFailures(io, [], ordered);
  }
  // Read: the results go (a result that cannot be printed is not lost: it stays on a failed write).
  for (const handle of wanted) consumeResult(handle, io.env);
  return ordered.find((result) => result.exitCode !== EXIT.ok)?.exitCode ?? EXIT.ok;
}

/** The turn's result once it has one; a turn whose scv died is reaped (and so has one). */
async function settled(handle: string, env: CliIo["env"]): Promise<TurnResult | undefined> {
  const running = readRunning(handle, env);
  const finished = readFinished(handle, env);
  if (finished !== undefined && (running === undefined || running.tag === finished.tag))
    return finished.result;
  if (running !== undefined && !turnOwnerAlive(running)) {
    await reapHandle(handle, env);
    return readFinished(handle, env)?.result;
  }
  if (running === undefined && finished === undefined) {
    throw new ScvError("USAGE", `the result of ${handle} was read meanwhile (by another scv wait)`);
  }
  return undefined;
}

function checkHandle(handle: string): void {
  if (!HANDLE_PATTERN.test(handle)) {
    throw new ScvError("USAGE", `'${handle}' is not a turn handle (like codex-k3f9x2) — scv ps lists them`);
  }
}

// --- scv ps, scv kill ---------------------------------------------------------------------------

export async function psCommand(io: CliIo, options: { json?: boolean } = {}): Promise<number> {
  const now = Date.now();
  const turns = listRunning(io.env).map((record) => ({
    handle: record.handle,
    agent: record.agent,
    model: record.model ?? null,
    pid: record.agentProcess?.pid ?? null,
    scvPid: record.scv.pid,
    startedAt: record.startedAt,
    elapsedMs: Math.max(0, now - Date.parse(record.startedAt)),
    tool: record.tool ?? null,
    background: record.background,
    depth: record.depth,
    cwd: record.cwd,
    prompt: record.prompt,
  }));
  if (options.json) {
    io.stdout.write(`${JSON.stringify(turns)}\n`);
    return EXIT.ok;
  }
  if (turns.length === 0) {
    io.stderr.write("no running turns\n");
    return EXIT.ok;
  }
  io.stdout.write(
    renderTable(
      ["HANDLE", "AGENT", "PID", "ELAPSED", "TOOL"],
      turns.map((turn) => [
        turn.handle,
        turn.agent,
        turn.pid === null ? "-" : String(turn.pid),
        formatDuration(turn.elapsedMs),
        turn.tool ?? "",
      ]),
    ),
  );
  return EXIT.ok;
}

export async function killCommand(io: CliIo, handle: string): Promise<number> {
  checkHandle(handle);
  const background = readRunning(handle, io.env)?.background ?? false;
  await killTurn(handle, io.env);
  io.stderr.write(
    background ? `stopped ${handle} — its result: scv wait ${handle}\n` : `stopped ${handle}\n`,
  );
  return EXIT.ok;
}
