// `scv attach <handle>` and `scv run <agent>`: an agent CLI's own interactive UI in the user's
// terminal, inside its private home with the environment of a delegated turn (no credentials but its
// own). `attach` opens the conversation's session the way the row's `takeover` says, holding the
// conversation's lock so no turn runs meanwhile, and notes the takeover in the record; `-c` then
// continues where the UI left off. `run` starts the CLI with the arguments given, for signing in,
// changing its settings or working by hand.

import { existsSync } from "node:fs";
import { recordedAccount } from "../accounts.js";
import { type AdapterDescriptor, type Takeover, unreachable } from "../adapters.js";
import { requireAgent } from "../agents/lookup.js";
import { storedKeyEnvironment } from "../agents/stored-key.js";
import { EXIT, ScvError } from "../errors.js";
import { ensureAgentHome } from "../home/agent-home.js";
import { agentSettings, type Config, loadConfig } from "../home/config.js";
import { lockConversation, readConversation, writeConversation } from "../home/conversations.js";
import { keepHomeSettings } from "../home/home-settings.js";
import { agentHome } from "../home/paths.js";
import type { CliIo } from "../io.js";
import { parseTurnRef } from "../jobs/handle.js";
import { type AttachedResult, runAttached } from "../process/helpers.js";
import { isoTimestamp } from "../timestamp.js";
import { checkModel } from "../transport/argv.js";
import { agentEnvironment, type Policy } from "../transport/env.js";
import type { Worktree } from "../worktrees/record.js";
import { recordTurn } from "../worktrees/record-turn.js";
import { requireInstalled } from "./own-sign-in.js";

/** Refuses unless scv's stdin and stdout are a terminal: the UI reads keys and draws a screen. */
function requireTerminal(io: CliIo, what: string): void {
  if (io.stdin.isTTY !== true || io.stdout.isTTY !== true) {
    throw new ScvError(
      "USAGE",
      `${what} needs a terminal (stdin and stdout), and there is none — run it in one`,
    );
  }
}

/** A delegated turn's environment, in the home of `account` (the default one unless given), with the
 * key scv holds where the row gives it as a variable (as a turn has it). */
async function interactiveEnvironment(
  entry: AdapterDescriptor,
  config: Config,
  io: CliIo,
  policy: Policy,
  account?: string,
): Promise<Record<string, string>> {
  const home = ensureAgentHome(entry.name, io.env, account);
  const env = agentEnvironment({
    parent: io.env,
    entry,
    home,
    policy,
    extra: agentSettings(config, entry.name).env,
    isolation: config.isolation,
  });
  for (const [name, value] of Object.entries(await storedKeyEnvironment(entry, home))) env[name] ??= value;
  return env;
}

/** The CLI's exit, as scv's: 0 for 0; a stop of scv's own as that signal's code; else one line. */
function concluded(io: CliIo, result: AttachedResult, command: string): number {
  if (result.stoppedBy !== undefined) return result.stoppedBy === "SIGTERM" ? EXIT.terminated : EXIT.hangup;
  if (result.spawnError !== undefined) {
    throw new ScvError(
      "AGENT_FAILED",
      `\`${command}\` could not be started — check it with: scv agents list`,
    );
  }
  if (result.code === 0) return EXIT.ok;
  const how = result.code === undefined ? `was ended by ${result.signal}` : `exited with ${result.code}`;
  io.stderr.write(`scv: \`${command}\` ${how}\n`);
  return EXIT.agentFailed;
}

/** The takeover's arguments for `session`, or why there are none. */
function takeoverArgs(entry: AdapterDescriptor, handle: string, session: string, policy: Policy): string[] {
  const takeover: Takeover = entry.takeover;
  const instead = `continue in scv with: scv delegate -c ${handle} "…"`;
  switch (takeover.kind) {
    case "unsupported":
      throw new ScvError("USAGE", `${entry.name} has no interactive resume scv knows — ${instead}`);
    case "refused":
      throw new ScvError(
        "USAGE",
        `scv does not open ${entry.name}'s own terminal (${takeover.reason}) — ${instead}`,
      );
    case "supported":
      return [
        ...takeover.args.map((arg) => arg.replaceAll("{session}", session)),
        ...(policy === "auto" ? takeover.fullArgs : []),
      ];
    default:
      return unreachable(takeover);
  }
}

export async function attachCommand(io: CliIo, given: string, options: { policy?: Policy }): Promise<number> {
  // A job (`<handle>.<8>`) names its conversation, as it does for every other command.
  const { handle } = parseTurnRef(given);
  const record = readConversation(handle, io.env);
  const entry = requireAgent(record.agent);
  const policy = options.policy ?? "default";
  const session = record.sessionId;
  if (session === undefined) {
    throw new ScvError(
      "USAGE",
      `${handle} has no session of ${entry.product} yet — run a turn first: scv delegate -c ${handle} "…"`,
    );
  }
  if (record.transport === "acp") {
    throw new ScvError(
      "USAGE",
      `${handle}'s turns run over ACP, whose server holds its session — continue it with: scv delegate -c ${handle} "…"`,
    );
  }
  const args = takeoverArgs(entry, handle, session, policy);
  // Only an id of the row's own shape enters argv.
  if (entry.resume.kind !== "supported" || !entry.resume.idPattern.test(session)) {
    throw new ScvError(
      "USAGE",
      `${handle}'s session id does not look like ${entry.product}'s — it cannot be resumed`,
    );
  }
  // Installation first: no terminal would make a missing CLI start either.
  const { config } = loadConfig(io.env);
  const path = requireInstalled(entry, config, io.env);
  requireTerminal(io, `scv attach ${handle}`);
  if (!existsSync(record.cwd)) {
    throw new ScvError("USAGE", `${handle}'s folder ${record.cwd} is gone — the session belongs to it`);
  }
  // The conversation's model, as its turns had it: a CLI on a provider of the user's own (a
  // bring-your-own-key mode) may refuse to start without one, and any other would open on its own default.
  const model = record.model ?? agentSettings(config, entry.name).model;
  if (model !== undefined && entry.modelArgs.length > 0) {
    const checked = checkModel(entry, model);
    args.push(...entry.modelArgs.map((arg) => arg.replaceAll("{model}", checked)));
  }
  // The session is in the home of the account the conversation ran in.
  const account = recordedAccount(handle, record.account);
  const release = await lockConversation(handle, io.env, 0);
  try {
    const env = await interactiveEnvironment(entry, config, io, policy, account);
    await keepHomeSettings(entry, agentHome(entry.name, io.env, account));
    io.stderr.write(
      `scv: ${entry.product} opens ${handle} in its own UI — when you leave it, scv continues with -c\n`,
    );
    const result = await runAttached(path, args, { env, cwd: record.cwd });
    const latest = readConversation(handle, io.env);
    // What was done in the UI, in the conversation's worktree: on its branch, as a turn's would be.
    if (latest.worktree !== undefined) await keepAttachedWork(io, latest.worktree, entry.name);
    const now = isoTimestamp();
    writeConversation(
      { ...latest, updatedAt: now, takeovers: (latest.takeovers ?? 0) + 1, lastTakeoverAt: now },
      io.env,
    );
    const code = concluded(io, result, [entry.command, ...args].join(" "));
    io.stderr.write(`conversation: ${handle} — continue with: scv delegate -c ${handle} "…"\n`);
    return code;
  } finally {
    await release();
  }
}

async function keepAttachedWork(io: CliIo, worktree: Worktree, agent: string): Promise<void> {
  try {
    const { commit, files } = await recordTurn(worktree, {
      agent,
      prompt: "work in its own UI (scv attach)",
      env: io.env,
    });
    if (commit !== null)
      io.stderr.write(
        `scv: ${files} changed ${files === 1 ? "file" : "files"} committed on ${worktree.branch}\n`,
      );
  } catch (error) {
    if (!(error instanceof ScvError)) throw error;
    io.stderr.write(`scv: ${error.message}\n`);
  }
}

export async function runCommand(
  io: CliIo,
  agent: string,
  args: readonly string[] | undefined,
): Promise<number> {
  const entry = requireAgent(agent);
  // Installation first: no terminal would make a missing CLI start either.
  const { config } = loadConfig(io.env);
  const path = requireInstalled(entry, config, io.env);
  requireTerminal(io, `scv run ${entry.name}`);
  const env = await interactiveEnvironment(entry, config, io, "default");
  await keepHomeSettings(entry, agentHome(entry.name, io.env));
  io.stderr.write(`scv: ${entry.product} runs in its private home, with scv's isolation\n`);
  const result = await runAttached(path, args ?? [], { env, cwd: io.cwd });
  return concluded(io, result, [entry.command, ...(args ?? [])].join(" "));
}
