// `scv delegate <agent>[:model][/effort] <prompt | ->` and `scv delegate -c <conversation> <prompt>`:
// one turn, its reply on stdout (or the `--json` result), failures and the conversation handle on
// stderr. scv's own SIGINT/SIGTERM end the agent's whole process group and exit 130/143.

import type { TransportKind } from "../adapters.js";
import { type AgentSpec, parseAgentSpec } from "../agent-spec.js";
import { withInterrupts } from "../cli/interrupts.js";
import { bellFor, createNotifier } from "../cli/notify.js";
import { terminalPermission } from "../cli/permission-prompt.js";
import { print } from "../cli/results.js";
import { turnOutput } from "../cli/turn-output.js";
import { durationOption } from "../duration.js";
import { EXIT, fileHint, ScvError } from "../errors.js";
import { type Config, loadConfig } from "../home/config.js";
import { MAX_PARALLEL } from "../home/config-schema.js";
import { type CliIo, stdoutDelivered } from "../io.js";
import type { TurnResult } from "../result.js";
import type { Policy } from "../transport/env.js";
import { attemptsOption, expandAttempts } from "../turn/attempts.js";
import { planTurns } from "../turn/batch.js";
import { runTurn } from "../turn/run-turn.js";
import type { TurnContext, TurnRequest } from "../turn/turn-types.js";
import { mayWantWorktrees, type WorktreeChoice } from "../turn/worktree-choice.js";

export interface DelegateOptions {
  readonly model?: string;
  readonly effort?: string;
  readonly continue?: string;
  readonly cwd?: string;
  readonly policy?: Policy;
  readonly transport?: TransportKind;
  readonly timeout?: string;
  readonly idleTimeout?: string;
  readonly parallel?: string;
  readonly json?: boolean;
  readonly events?: boolean;
  readonly quiet?: boolean;
  readonly background?: boolean;
  readonly env?: readonly string[];
  readonly mcp?: readonly string[];
  readonly waitForReset?: string;
  /** `--review-by` (repeatable, comma-separated): a reviewed delegation (commands/reviewed.ts). */
  readonly reviewBy?: readonly string[];
  readonly rounds?: string;
  readonly focus?: string;
  /** `--worktree` (true), `--no-worktree` (false). */
  readonly worktree?: boolean;
  readonly base?: string;
  readonly withChanges?: boolean;
  /** `--setup <command>`, `--no-setup` (false). */
  readonly setup?: string | false;
  /** `--check <command>`, `--no-check` (false). */
  readonly check?: string | false;
  readonly checkTimeout?: string;
  /** `--n`: attempts of each target. */
  readonly n?: string;
}

/** How many turns of a fan-out run at once: `--parallel`, the config's `parallel`, else 4. */
export function parallelism(options: DelegateOptions, config: Config): number {
  if (options.parallel === undefined) return config.parallel ?? DEFAULT_PARALLEL;
  const n = Number(options.parallel);
  if (!Number.isInteger(n) || n < 1 || n > MAX_PARALLEL) {
    throw new ScvError(
      "USAGE",
      `--parallel '${options.parallel}' is not a count — give a whole number from 1 to ${MAX_PARALLEL}`,
    );
  }
  return n;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const DEFAULT_PARALLEL = 4;

export async function delegateCommand(
  io: CliIo,
  positionals: readonly string[],
  options: DelegateOptions = {},
): Promise<number> {
  const { agents, promptArg } = splitPositionals(positionals, options.continue !== undefined);
  const loaded = loadConfig(io.env);
  const config = loaded.config;
  // Checked with one agent too: a typo is an error wherever it is written.
  const concurrency = parallelism(options, config);
  if (options.json && options.events) {
    throw new ScvError("USAGE", "--json and --events both choose what stdout carries — pass one of them");
  }
  if (options.reviewBy === undefined && (options.rounds !== undefined || options.focus !== undefined)) {
    throw new ScvError(
      "USAGE",
      `${options.rounds === undefined ? "--focus" : "--rounds"} goes with --review-by — name the reviewers (or auto)`,
    );
  }
  if (options.reviewBy !== undefined && agents.length > 1) {
    throw new ScvError("USAGE", "a reviewed delegation has one author — name one agent before the prompt");
  }
  const n = attemptsOption(options.n);
  if (options.continue !== undefined && n > 1) {
    throw new ScvError("USAGE", "--n starts new conversations, and -c continues one — drop one of them");
  }
  if (options.reviewBy !== undefined && (n > 1 || options.worktree === true)) {
    // The reviewed loop reviews the working tree it snapshotted; a worktree attempt is reviewed after.
    throw new ScvError(
      "USAGE",
      "--review-by reviews a turn in your working tree — for worktree attempts run scv review --job <handle> after them",
    );
  }
  const choice = worktreeChoice(options);
  const prompt = promptArg === "-" ? await readPrompt(io) : promptArg;
  if (options.reviewBy !== undefined) {
    const { reviewedDelegation } = await import("./reviewed.js");
    return reviewedDelegation(
      io,
      turnRequest(agents[0], prompt, options),
      { ...options, reviewBy: options.reviewBy },
      config,
      loaded.path,
    );
  }
  // Each target --n times, a target named twice as often (turn/attempts.ts).
  const attempts = expandAttempts(agents.length === 0 ? [undefined] : agents, n, targetKey);
  // Several turns, or --background: each turn in its own conversation (fanout.ts, background.ts).
  if (options.background || attempts.length > 1) {
    const requests = attempts.map((each) => turnRequest(each.target, prompt, options));
    return options.background
      ? (await import("./background.js")).startBackgroundTurns(io, requests, config, options, {
          worktrees: choice,
        })
      : (await import("./fanout.js")).runFanOut(io, requests, config, options, {
          concurrency,
          choice,
          attempts,
        });
  }
  const spec = agents[0];
  let request = turnRequest(spec, prompt, options);

  const output = turnOutput(io, options, spec?.agent ?? options.continue ?? "scv");
  const notifier = createNotifier({
    config,
    env: io.env,
    prompt,
    note: (line) => io.stderr.write(`scv: note: ${line}\n`),
  });
  const onNotice = (line: string) => {
    if (!options.quiet) io.stderr.write(`scv: ${line}\n`);
  };
  const result = await withInterrupts(
    io,
    async (signal) => {
      if (mayWantWorktrees(choice, config)) {
        const prepared = await inWorktree(request, choice, {
          env: io.env,
          cwd: io.cwd,
          config,
          signal,
          onNotice,
        });
        if (prepared.kind === "failed") return prepared.result;
        request = prepared.request;
      }
      return runTurn(request, {
        env: io.env,
        cwd: io.cwd,
        config,
        signal,
        lockWaitMs: durationOption("SCV_LOCK_WAIT", io.env.SCV_LOCK_WAIT, { allowZero: true }),
        onEvent: output.onEvent,
        askPermission: terminalPermission(io, output.hold),
        onNotice,
        onWaiting: notifier.waiting,
        onRegistered: notifier.registered,
      });
    },
    "the agent",
  );
  output.finish(result);
  print(io, result, options);
  const bell = bellFor(result, config, io.stderr);
  if (bell !== "") io.stderr.write(bell);
  await notifier.ended(result);
  await notifier.settle();
  // A reply written into a pipe whose reader had gone (`… 2>&1 | head -1`): 141, as with --events;
  // to a terminal that closed: 129, as on its SIGHUP. Any other write failure (`> /dev/full`, a full
  // disk) is said: the reply is lost, not unwanted.
  if (result.exitCode === EXIT.ok && !(await stdoutDelivered(io))) {
    const code = (io.stdout.errored as NodeJS.ErrnoException | null | undefined)?.code;
    if (code === undefined || code === "EPIPE") return EXIT.outputClosed;
    if (code === "EIO") return EXIT.hangup;
    io.stderr.write(`scv: cannot write the reply to stdout (${code}) — ${fileHint(code)}\n`);
    return EXIT.agentFailed;
  }
  return result.exitCode;
}

/** A single turn's worktree made before it runs (turn/worktree.ts): its request then runs there.
 * A turn whose plan fails runs as it is, to fail as a turn without a worktree would. */
async function inWorktree(
  request: TurnRequest,
  choice: WorktreeChoice,
  context: TurnContext,
): Promise<{ kind: "ready"; request: TurnRequest } | { kind: "failed"; result: TurnResult }> {
  const planned = planTurns([request], context);
  const { prepareWorktrees } = await import("../turn/worktree.js");
  const [prepared] = await prepareWorktrees(planned, choice, context);
  if (prepared?.kind === "ready") return { kind: "ready", request: prepared.request };
  if (prepared === undefined || planned[0]?.kind === "failed") return { kind: "ready", request };
  return { kind: "failed", result: prepared.result };
}

/** What the command line asks of worktrees. */
function worktreeChoice(options: DelegateOptions): WorktreeChoice {
  return {
    ...(options.worktree === undefined ? {} : { worktree: options.worktree }),
    ...(options.base === undefined ? {} : { base: options.base }),
    ...(options.withChanges ? { withChanges: true } : {}),
    ...(options.setup === undefined ? {} : { setup: options.setup === false ? "" : options.setup }),
    check: typeof options.check === "string",
  };
}

/** Two targets are the same when written alike (`<agent>:<model>` and `<agent>` are not). */
function targetKey(spec: AgentSpec | undefined): string {
  return JSON.stringify([spec?.agent, spec?.model, spec?.effort, spec?.accounts]);
}

/** One turn as the command line asks for it; an agent's own model and effort win over -m/-e. */
function turnRequest(spec: AgentSpec | undefined, prompt: string, options: DelegateOptions): TurnRequest {
  return {
    agent: spec?.agent,
    continue: options.continue,
    prompt,
    model: spec?.model ?? options.model,
    effort: spec?.effort ?? options.effort,
    ...(spec?.accounts === undefined ? {} : { accounts: spec.accounts }),
    ...(options.waitForReset === undefined
      ? {}
      : { waitForResetMs: durationOption("--wait-for-reset", options.waitForReset) }),
    policy: options.policy,
    transport: options.transport,
    cwd: options.cwd,
    timeoutMs: durationOption("--timeout", options.timeout),
    idleTimeoutMs: durationOption("--idle-timeout", options.idleTimeout),
    env: envOptions(options.env ?? []),
    ...(options.mcp === undefined ? {} : { mcp: mcpOption(options.mcp) }),
    ...(options.check === undefined ? {} : { check: options.check === false ? "" : options.check }),
    ...(options.checkTimeout === undefined
      ? {}
      : { checkTimeoutMs: durationOption("--check-timeout", options.checkTimeout) }),
  };
}

/** `--mcp a,b --mcp c`: the servers named; `none` (alone) for none, over an agent's default. */
export function mcpOption(values: readonly string[]): string[] {
  const names = values.flatMap((value) => value.split(",")).map((name) => name.trim());
  if (names.length === 1 && names[0] === "none") return [];
  const bad = names.find((name) => name === "" || name === "none");
  if (bad !== undefined)
    throw new ScvError(
      "USAGE",
      `--mcp '${values.join(",")}' is not a list of server names — write it like --mcp docs,search, or --mcp none`,
    );
  return names;
}

/** The agents (none when continuing) and the prompt, which is always the last positional. */
function splitPositionals(
  positionals: readonly string[],
  continuing: boolean,
): { agents: AgentSpec[]; promptArg: string } {
  const promptArg = positionals.at(-1);
  const names = positionals.slice(0, -1);
  if (continuing) {
    if (positionals.length !== 1 || promptArg === undefined) {
      throw new ScvError(
        "USAGE",
        "with -c the agent comes from the conversation — pass only the prompt: scv delegate -c <conversation> <prompt>",
      );
    }
    return { agents: [], promptArg };
  }
  if (promptArg === undefined || names.length === 0) {
    throw new ScvError("USAGE", "name an agent and a prompt — scv delegate <agent> <prompt | ->");
  }
  return { agents: names.map(parseAgentSpec), promptArg };
}

function envOptions(pairs: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    const name = at === -1 ? pair : pair.slice(0, at);
    if (at === -1 || !ENV_NAME.test(name)) {
      throw new ScvError("USAGE", `--env '${pair}' is not NAME=value — write it like --env IS_SANDBOX=1`);
    }
    env[name] = pair.slice(at + 1);
  }
  return env;
}

async function readPrompt(io: CliIo): Promise<string> {
  if (io.stdin.isTTY) io.stderr.write("scv: reading the prompt from stdin; end it with Ctrl-D\n");
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) {
    chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  }
  return Buffer.concat(chunks).toString("utf8");
}
