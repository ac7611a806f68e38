// Planning a turn: which agent (or the conversation being continued), its executable, settings,
// session, argv and prompt, all checked before anything is written or spawned. What the user must
// fix is thrown as an `ScvError`; a model or effort from the config file is reported with the file
// and key.

import { existsSync, realpathSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { nanoid } from "nanoid/non-secure";
import { accountLabel, DEFAULT_ACCOUNT, recordedAccount, requireAccountName } from "../accounts.js";
import { acpArgs, acpCliEnvironment, acpSession } from "../acp/turn/plan-acp-server.js";
import type { AdapterDescriptor, TransportKind } from "../adapters.js";
import { installHint, locateAcpServer, locateAgent, requireAgent } from "../agents/lookup.js";
import { parseDuration } from "../duration.js";
import { ScvError } from "../errors.js";
import { type AgentConfig, agentSettings } from "../home/config.js";
import { type ConversationRecord, newHandle, readConversation, recordExists } from "../home/conversations.js";
import { agentHome, configCandidates, type Env } from "../home/paths.js";
import { jobHandle, turnExists } from "../home/turn-files.js";
import { randomUUID } from "../random.js";
import {
  type ArgvRequest,
  buildAgentCommand,
  checkEffort,
  checkModel,
  type SessionArg,
} from "../transport/argv.js";
import type { Policy } from "../transport/env.js";
import { refuseTooDeep } from "./depth.js";
import { chooseMcpServers } from "./mcp-servers.js";
import { splitMessage } from "./outcome.js";
import { retryEnvironment } from "./retry-bound.js";
import { endpointModel, planEndpoint } from "./turn-endpoint.js";
import type { TurnContext, TurnPlan, TurnRequest } from "./turn-types.js";

/** Resolves and validates a request without side effects; throws `ScvError` for what the user must
 * fix (unknown agent or conversation, bad value, CLI not installed). */
export function planTurn(request: TurnRequest, context: TurnContext): TurnPlan {
  refuseTooDeep(context.env, context.config);
  // A job names its conversation: `-c <agent>-k3f9x2.a1b2c3d4` continues <agent>-k3f9x2.
  const continued =
    request.continue === undefined ? undefined : (jobHandle(request.continue) ?? request.continue);
  const record = continued === undefined ? undefined : readConversation(continued, context.env);
  if (record !== undefined && request.agent !== undefined && request.agent !== record.agent) {
    throw new ScvError(
      "USAGE",
      `conversation ${record.handle} belongs to ${record.agent}, not ${request.agent} — drop the agent name when continuing`,
    );
  }
  const account = turnAccount(record, request.account);
  const name = record?.agent ?? request.agent;
  if (name === undefined) throw new ScvError("USAGE", "no agent named — scv delegate <agent> <prompt>");
  const entry = requireAgent(name);
  const settings = agentSettings(context.config, entry.name);
  // A reviewer's read-only arguments exist only on the CLI's own command line.
  const reviewOnCli = request.review === true && entry.cliTurns;
  const transport = chooseTransport(
    entry,
    record === undefined
      ? reviewOnCli
        ? "process"
        : (request.transport ?? settings.transport)
      : keptTransport(record, request.transport),
  );

  let session: SessionArg | undefined;
  if (transport === "acp") session = acpSession(entry, record);
  else if (record !== undefined) {
    if (entry.resume.kind === "unsupported") throw cannotContinue(entry, entry.resume.reason);
    if (record.sessionId === undefined) {
      throw new ScvError(
        "UNKNOWN_CONVERSATION",
        `conversation ${record.handle} has no ${entry.product} session to continue — start a new one`,
      );
    }
    session = { kind: "continue", id: record.sessionId };
  } else if (entry.resume.kind === "supported" && entry.resume.start !== undefined) {
    // This CLI lets the caller choose the id, so the conversation is known before the turn runs.
    session = { kind: "start", id: randomUUID() };
  }

  const defaults = record === undefined ? settingsDefaults(settings) : continuedDefaults(record, settings);
  const model = request.model ?? defaults.model;
  const effort = request.effort ?? defaults.effort;
  // A reviewer changes nothing: never the full-permission mode, whatever the config says.
  const policy = request.review === true ? "default" : (request.policy ?? defaults.policy);
  // A model or effort the config file gave is the file's to fix, not a flag's. Over ACP both are
  // checked against what the session offers, once it exists.
  const fromConfig = record === undefined && transport === "process";
  if (fromConfig && request.model === undefined && model !== undefined)
    checkConfigured(context.env, entry, "model", () => checkModel(entry, model));
  if (fromConfig && request.effort === undefined && effort !== undefined)
    checkConfigured(context.env, entry, "effort", () => checkEffort(entry, effort));
  const worktree = record === undefined ? request.worktree : record.worktree;
  if (record?.worktree !== undefined && !existsSync(record.cwd)) throw worktreeGone(record);
  const cwd = projectDir(
    request.cwd === undefined ? (record?.cwd ?? context.cwd) : resolve(context.cwd, request.cwd),
  );
  // CLIs keep their sessions per project folder: resumed elsewhere, the session is
  // not found, and the record would move for every later turn.
  if (record !== undefined && !sameFolder(cwd, record.cwd)) {
    throw new ScvError(
      "USAGE",
      `conversation ${record.handle} works in ${record.cwd} — drop --cwd to continue it there, or start a new conversation in ${cwd}`,
    );
  }
  let retryEnv: Record<string, string> = {};
  const maxRetries = settings.max_retries;
  if (maxRetries !== undefined)
    checkConfigured(context.env, entry, "max_retries", () => {
      retryEnv = retryEnvironment(entry, maxRetries);
    });
  const check = planCheck(request, context, record, worktree);
  const timeoutMs = request.timeoutMs ?? configDuration(settings.timeout);
  const idleTimeoutMs = request.idleTimeoutMs ?? configDuration(settings.idle_timeout);

  const mcpServers = chooseMcpServers(request.mcp, settings.mcp, context.config, entry, transport === "acp");
  const endpoint = planEndpoint(entry, settings, transport, model);

  const home = agentHome(entry.name, context.env, account);
  // An adapter's own copy of the CLI may be older than the user's: it gets the one scv located.
  const cliEnv =
    transport === "acp" && entry.acp?.cliPathVariable !== undefined
      ? acpCliEnvironment(entry.acp, locateAgent(entry, context.config, context.env))
      : {};
  const command =
    transport === "acp"
      ? acpCommand(entry, policy, model, context)
      : processCommand(entry, context, home, {
          prompt: request.prompt,
          policy,
          model: endpointModel(endpoint, model),
          effort,
          session,
        });
  const { policyAt, ...planned } = command;

  return {
    entry,
    transport,
    ...planned,
    ...(request.review === true && transport === "process" && policyAt !== undefined
      ? { review: { at: policyAt } }
      : {}),
    home,
    account,
    cwd,
    handle: record?.handle ?? request.handle ?? freshHandle(entry.name, context.env),
    record,
    session,
    model,
    effort,
    policy,
    timeoutMs,
    idleTimeoutMs,
    // The bound and the adapter's CLI first: the same variable given in the agent's env (or --env)
    // is the user's word. Set after the credential stripping (a row's `<CLI>_*` removes its own).
    extraEnv: { ...retryEnv, ...cliEnv, ...settings.env, ...request.env },
    mcpServers,
    ...(endpoint === undefined ? {} : { endpoint }),
    prompt: request.prompt,
    recordConversation: request.record ?? true,
    keepUsage: request.record ?? true,
    ...(transport === "acp" && (request.record ?? true)
      ? { sessionIdleMs: configDuration(settings.session_idle) ?? DEFAULT_SESSION_IDLE_MS }
      : {}),
    ...(worktree === undefined ? {} : { worktree }),
    ...(check === undefined ? {} : { check }),
  };
}

/** How long a check (and a worktree's setup) may run unless `--check-timeout` or `check_timeout`
 * says. */
export const DEFAULT_CHECK_TIMEOUT_MS = 10 * 60_000;

/** The check after a turn in a worktree: `--check` ("" for none), else the config's `check`. A
 * first turn's `--check` without a worktree is the command line's to refuse (its worktree is made
 * after planning); a continued conversation without one refuses it here. */
function planCheck(
  request: TurnRequest,
  context: TurnContext,
  record: ConversationRecord | undefined,
  worktree: TurnPlan["worktree"],
): TurnPlan["check"] {
  if (record !== undefined && worktree === undefined && request.check !== undefined && request.check !== "") {
    throw new ScvError(
      "USAGE",
      `--check runs in a conversation's worktree, and ${record.handle} has none (it works in ${record.cwd}) — drop --check`,
    );
  }
  const command = request.check ?? context.config.check;
  if (worktree === undefined || command === undefined || command === "") return undefined;
  const timeoutMs =
    request.checkTimeoutMs ?? configDuration(context.config.check_timeout) ?? DEFAULT_CHECK_TIMEOUT_MS;
  return { command, timeoutMs };
}

function worktreeGone(record: ConversationRecord): ScvError {
  const branch = record.worktree?.branch ?? `scv/${record.handle}`;
  return new ScvError(
    "USAGE",
    `conversation ${record.handle}'s worktree ${record.cwd} is gone, and its session belongs to that folder — its branch ${branch} keeps what its turns wrote (scv diff ${record.handle}, scv apply ${record.handle}); start a new conversation`,
  );
}

/** The account a turn runs under: a continued conversation's own (its session is in that account's
 * home only), else the one asked for, else the default. */
function turnAccount(record: ConversationRecord | undefined, asked: string | undefined): string {
  // Every way in (a target, a background job's request, a record on disk) is checked here: the name
  // becomes a folder name.
  if (asked !== undefined) requireAccountName(asked);
  if (record === undefined) return asked ?? DEFAULT_ACCOUNT;
  const own = recordedAccount(record.handle, record.account);
  if (asked !== undefined && asked !== own) {
    throw new ScvError(
      "USAGE",
      `conversation ${record.handle} belongs to ${accountLabel(record.agent, own)}, not ${accountLabel(record.agent, asked)} — a conversation stays in its account; drop the @account when continuing`,
    );
  }
  return own;
}

/** How long a conversation's ACP server waits for its next turn, unless the config says. */
const DEFAULT_SESSION_IDLE_MS = 10 * 60_000;

/** What a turn uses where the command line names nothing. */
export interface TurnDefaults {
  readonly model: string | undefined;
  readonly effort: string | undefined;
  readonly policy: Policy;
}

function settingsDefaults(settings: AgentConfig): TurnDefaults {
  return { model: settings.model, effort: settings.effort, policy: settings.policy ?? "default" };
}

/** A continued turn's defaults: the model and effort of the conversation's first turn (agent and cwd
 * come from it too), which `-m`/`-e` on a later turn change for that turn only; and never the policy
 * an earlier turn asked for — `--policy auto` is asked for per turn, so the safe default (or the
 * config's policy for the agent) holds unless it is asked again. */
export function continuedDefaults(record: ConversationRecord, settings: AgentConfig): TurnDefaults {
  return { model: record.model, effort: record.effort, policy: settings.policy ?? "default" };
}

/** A per-turn CLI's argv (and stdin), and where it is installed. */
function processCommand(
  entry: AdapterDescriptor,
  context: TurnContext,
  home: string,
  turn: Omit<ArgvRequest, "entry" | "lastMessageFile">,
): Pick<TurnPlan, "executable" | "args" | "stdin" | "lastMessageFile"> & { policyAt?: number } {
  const lastMessageFile =
    entry.output.lastMessageArgs !== undefined
      ? join(home, ".scv", `last-message-${nanoid(10)}.txt`)
      : undefined;
  const { args, stdin, policyAt } = buildAgentCommand({ entry, ...turn, lastMessageFile });
  const configured = context.config.agents?.[entry.name]?.command;
  const executable = locateAgent(entry, context.config, context.env);
  if (executable === undefined) notInstalled(entry, context, configured, installHint(entry, configured));
  return { executable, args, stdin, lastMessageFile, policyAt };
}

/** An ACP server's argv, and where it is installed. */
function acpCommand(
  entry: AdapterDescriptor,
  policy: Policy,
  model: string | undefined,
  context: TurnContext,
): Pick<TurnPlan, "executable" | "args"> & { policyAt?: number } {
  const acp = entry.acp;
  if (acp === null) throw new Error(`${entry.name} has no ACP launch`);
  const configured = acp.command === entry.command ? context.config.agents?.[entry.name]?.command : undefined;
  const executable = locateAcpServer(entry, context.config, context.env);
  if (executable === undefined && acp.command !== entry.command)
    // An adapter of its own (`acp.package`): the CLI itself may well be installed.
    throw new ScvError(
      "AGENT_NOT_INSTALLED",
      `${entry.product}'s ACP adapter is not installed ('${acp.command}' not found) — ${
        acp.package === undefined
          ? `install ${acp.command}`
          : `run: scv agents install ${entry.name} --acp (npm: ${acp.package})`
      }, or use --transport process`,
    );
  if (executable === undefined) notInstalled(entry, context, configured, installHint(entry, configured));
  const launchModel =
    model === undefined || acp.modelArgs === undefined ? undefined : checkModel(entry, model);
  return { executable, args: acpArgs(acp, policy, launchModel) };
}

function notInstalled(
  entry: AdapterDescriptor,
  context: TurnContext,
  configured: string | undefined,
  hint: string,
): never {
  if (configured?.includes("/") && existsSync(resolve(context.cwd, configured))) {
    throw new ScvError(
      "AGENT_NOT_INSTALLED",
      `${configured} ([agents.${entry.name}] command in scv's config) is not an executable file — chmod +x it, or point command at the CLI itself`,
    );
  }
  throw new ScvError(
    "AGENT_NOT_INSTALLED",
    `${entry.product} is not installed ('${configured ?? entry.command}' not found) — ${hint}`,
  );
}

/** The one line refusing `-c` of a per-turn conversation whose CLI cannot continue one: why, where
 * the row says, and the ACP server's conversations where it has a verified one (their sessions load). */
function cannotContinue(entry: AdapterDescriptor, reason: string | undefined): ScvError {
  const why = reason === undefined ? "" : ` (${reason})`;
  const acp =
    entry.acp !== null && entry.acp.verified.kind === "lab"
      ? `, or begin it over ACP (scv delegate ${entry.name} --transport acp …), whose conversations continue`
      : "";
  return new ScvError(
    "RESUME_UNSUPPORTED",
    `${entry.product} cannot continue a conversation begun per turn${why} — start a new one${acp}`,
  );
}

/** A continued conversation's transport: the one its turns ran over (process for a record from before
 * scv had ACP). Another is refused: a warm ACP server would not have seen a process turn, nor a process
 * turn what only the server was told. */
function keptTransport(record: ConversationRecord, asked: TransportKind | undefined): TransportKind {
  const kept = record.transport ?? "process";
  if (asked === undefined || asked === kept) return kept;
  const name = (kind: TransportKind) => (kind === "acp" ? "ACP" : kind);
  throw new ScvError(
    "USAGE",
    `conversation ${record.handle} runs over ${name(kept)}, and a conversation keeps the transport it began with — continue it without --transport ${asked}, or start a new conversation over ${name(asked)}`,
  );
}

/** The transport asked for (flag, conversation, config), else the row's; one the row lacks is a
 * usage error naming the other. */
function chooseTransport(entry: AdapterDescriptor, asked: TransportKind | undefined): TransportKind {
  const transport = asked ?? entry.transport;
  if (transport === "acp" && entry.acp === null)
    throw new ScvError(
      "USAGE",
      `${entry.product} has no ACP server scv knows — use --transport process (or drop transport = "acp" from its config)`,
    );
  if (transport === "process" && !entry.cliTurns)
    throw new ScvError(
      "USAGE",
      `${entry.product} has no verified one-turn command line — use --transport acp (its default)`,
    );
  return transport;
}

function projectDir(dir: string): string {
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new ScvError("USAGE", `no directory ${dir} — pass an existing project folder with --cwd`);
  return dir;
}

function sameFolder(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

function configDuration(text: string | undefined): number | undefined {
  return text === undefined ? undefined : parseDuration(text);
}

function freshHandle(agent: string, env: Env): string {
  for (;;) {
    const handle = newHandle(agent);
    if (!recordExists(handle, env) && !turnExists(handle, env)) return handle;
  }
}

/** Runs `check` on a value of `[agents.<name>] key` in scv's config; its failure names the file and
 * the key, as the config's own checks do. */
function checkConfigured(env: Env, entry: AdapterDescriptor, key: string, check: () => void): void {
  try {
    check();
  } catch (error) {
    if (!(error instanceof ScvError)) throw error;
    const [what, hint] = splitMessage(error.message);
    const file = configCandidates(env).find((path) => existsSync(path)) ?? "scv's config";
    // The check's own hint says what would do, unless it is about the flag ("omit --effort").
    const fix =
      hint === undefined || hint.startsWith("omit ")
        ? "remove it"
        : `${hint.replace(/\.$/, "")}; or remove it`;
    throw new ScvError("BAD_CONFIG", `${file}: agents.${entry.name}.${key}: ${what} — ${fix}`);
  }
}
