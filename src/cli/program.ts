// scv's command line as commander parses it: every command, its help, and its usage errors. Each
// command's module is imported only when that command runs.

import { Command, CommanderError, Option } from "commander";
import { EXIT } from "../errors.js";
import type { CliIo } from "../io.js";
import { VERSION } from "../version.js";
import { addAgentsCommands } from "./agents-commands.js";
import { defaultToList, lazy } from "./command-actions.js";
import { describeFromTable, mayShowHelp, TABLE_TEXT } from "./table-help.js";
import { oneLineErrors, TAKES_A_PROMPT, unknownCommand } from "./usage-errors.js";

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

type AddCommands = (program: Command, io: CliIo) => void;

/** Each function adding top-level commands, beside the names of those it adds, in the order help
 * lists them. */
const COMMAND_GROUPS: readonly (readonly [names: readonly string[], add: AddCommands])[] = [
  [["delegate"], addDelegateCommand],
  [["review"], addReviewCommand],
  [["agents"], addAgentsCommands],
  [["attach", "run"], addTakeoverCommands],
  [["compare", "diff", "apply"], addWorktreeCommands],
  [["conversations"], addConversationsCommands],
  [["wait", "usage", "ps", "top", "logs", "kill"], addJobCommands],
  [["mcp"], addMcpCommands],
  [["background-turn", "session-host"], addDetachedCommands],
];

/** The top-level command names COMMAND_GROUPS knows, each of which builds its group alone. */
export const GROUPED_COMMANDS: readonly string[] = COMMAND_GROUPS.flatMap(([names]) => names);

/** The top-level commands parsing `argv` can reach: the one it names first, none for the version,
 * every command otherwise — help lists them all, and an unknown command's message names the nearest.
 * Building scv's thirty-odd commands and their options was a tenth of `scv --version`'s start-up
 * (docs/benchmarks.md). Undefined: every command. */
export function commandsReached(argv: readonly string[]): readonly string[] | undefined {
  if (mayShowHelp(argv)) return undefined;
  const first = argv[0];
  if (first === "-V" || first === "--version") return [];
  return GROUPED_COMMANDS.includes(first as string) ? [first as string] : undefined;
}

/** `beforeCommand`: what every command does before its own work (cli/before-command.ts), run once a
 * command's action is chosen; never for the version, help or a usage error. `only`: the top-level
 * commands to build (commandsReached), every one when undefined. */
export function buildProgram(
  io: CliIo,
  beforeCommand: () => Promise<void> = async () => {},
  only?: readonly string[],
): Command {
  const program = new Command("scv")
    .description("Delegate a turn to another coding agent's own CLI and bring the reply back.")
    .version(VERSION, "-V, --version", "print scv's version")
    .helpOption("-h, --help", "show help")
    .showSuggestionAfterError(true)
    .enablePositionalOptions()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .exitOverride()
    .hook("preAction", beforeCommand);

  for (const [names, add] of COMMAND_GROUPS) {
    if (only === undefined || names.some((name) => only.includes(name))) add(program, io);
  }

  program.on("command:*", (operands: string[]) => {
    throw unknownCommand("command", operands[0], program);
  });
  oneLineErrors(program);
  return program;
}

/** `scv delegate`: its options are commands/delegate.ts's DelegateOptions, as commander names them. */
function addDelegateCommand(program: Command, io: CliIo): void {
  const delegate = program
    .command("delegate")
    .description("run one turn of one or more agents: scv delegate <agent>… <prompt | ->")
    .argument(
      "<agent-and-prompt...>",
      "agent[:model][/effort][@account,…]… then the prompt ('-' reads stdin)",
    )
    .option("-m, --model <id>", "model for agents that name none")
    .option("-e, --effort <level>", "effort for agents that name none")
    .option("-c, --continue <conversation>", "continue an scv conversation (its agent is used)")
    .option("-C, --cwd <dir>", "the project the agent works in (default: the current directory)")
    .addOption(new Option("--policy <mode>", "permission policy").choices(["auto", "default"]))
    .addOption(
      new Option("--transport <kind>", "the agent's CLI once per turn, or its ACP server").choices([
        "process",
        "acp",
      ]),
    )
    .option("--timeout <duration>", "whole-turn limit, e.g. 90s, 20m")
    .option("--idle-timeout <duration>", "end the turn after no output for that long")
    .option("--parallel <n>", "how many agents run at once")
    .option("--json", "print one JSON object (an array for several agents)")
    .option("--events", "print normalized events as NDJSON while the turn runs")
    .option("-q, --quiet", "no progress on stderr")
    .option("--background", "start the turn detached and print its job")
    .option(
      "--wait-for-reset <max>",
      "wait up to this long for a rate limit's reset (every account's, or a plain agent's), e.g. 10m",
    )
    .option("--env <NAME=value>", "extra variable for the agent (repeatable)", collect)
    .option(
      "--mcp <names>",
      "[mcp_servers] from scv's config the agent gets this turn, comma-separated; none for none",
      collect,
    )
    .option("--n <count>", "run each agent this many times, each its own conversation (best of N)")
    .option("--worktree", "run each new conversation in a git worktree of its own, on branch scv/<handle>")
    .option("--no-worktree", "no worktree, whatever scv's config says")
    .option("--base <ref>", "the commit a new worktree starts from (default: HEAD)")
    .option("--with-changes", "carry your uncommitted changes (not ignored files) into the new worktree")
    .option("--setup <command>", "run in each new worktree before its agent starts, e.g. 'npm ci'")
    .option("--no-setup", "no setup, whatever worktree_setup in scv's config says")
    .option("--check <command>", "run in the worktree after each turn, e.g. 'npm test': pass or fail")
    .option("--no-check", "no check, whatever check in scv's config says")
    .option("--check-timeout <duration>", "how long a check (or setup) may run (default 10m)")
    .option(
      "--review-by <targets>",
      "review the agent's changes: reviewers as agents are written (comma-separated, repeatable), or auto",
      collect,
    )
    .option("--rounds <n>", "with --review-by: send the findings back and review again, up to n reviews")
    .option("--focus <text>", "with --review-by: what the reviewers should look at")
    .action(lazy(io, async () => (await import("../commands/delegate.js")).delegateCommand));
  TAKES_A_PROMPT.add(delegate);
}

/** `scv review`: changes reviewed by other agents. */
function addReviewCommand(program: Command, io: CliIo): void {
  program
    .command("review")
    .description(
      "review changes with other agents: one merged report, a verdict, exit 1 on changes requested",
    )
    .argument(
      "[targets...]",
      `reviewers as agents are written (${TABLE_TEXT.agent}, ${TABLE_TEXT.otherAgent}/high, ${TABLE_TEXT.account})`,
    )
    .option(
      "--base <ref>",
      "the branch's changes since its merge base with <ref> (default: the working tree's)",
    )
    .option("--staged", "the staged changes")
    .option("--commit <sha>", "one commit")
    .option("--job <job|handle>", "a delegated turn's changes: its worktree branch, or the files it touched")
    .option("--focus <text>", "what the reviewers should look at")
    .option(
      "--reviewers <targets>",
      "reviewers (comma-separated), or auto: two of other families than the author's",
    )
    .option("--author <agent>", "whose work it is: auto leaves its model family out")
    .option("-C, --cwd <dir>", "the repository (default: the current directory)")
    .option("--json", "print the report as JSON (--format json)")
    .addOption(
      new Option("--format <form>", "text, json, markdown (a PR comment) or sarif").choices([
        "text",
        "json",
        "markdown",
        "sarif",
      ]),
    )
    .option("--timeout <duration>", "each reviewer turn's limit, e.g. 10m")
    .option("--idle-timeout <duration>", "end a reviewer turn after no output for that long")
    .option("-q, --quiet", "no progress on stderr")
    .option("--background", "start the review detached and print its job (scv wait <job> prints the report)")
    .action(lazy(io, async () => (await import("../commands/review.js")).reviewCommand));
}

/** `scv attach` and `scv run`: an agent's own interactive UI, on the terminal. */
function addTakeoverCommands(program: Command, io: CliIo): void {
  program
    .command("attach")
    .description("open a conversation's session in its agent's own interactive UI, in your terminal")
    .argument("<handle>", "the conversation, or one of its jobs")
    .addOption(
      new Option(
        "--policy <mode>",
        "auto: the UI's own full-autonomy switches (default: its defaults)",
      ).choices(["auto", "default"]),
    )
    .action(lazy(io, async () => (await import("../commands/takeover.js")).attachCommand));

  program
    .command("run")
    .description("start an agent's interactive CLI in its private home, with scv's isolation")
    .argument("<agent>", "the agent")
    .argument("[args...]", "arguments after -- go to the CLI")
    .action(lazy(io, async () => (await import("../commands/takeover.js")).runCommand));
}

/** `scv compare`, `diff` and `apply`: what turns did in their worktrees. */
function addWorktreeCommands(program: Command, io: CliIo): void {
  program
    .command("compare")
    .description(
      "compare conversations that ran in worktrees: files, +/-, check, tokens, cost, time, one row each",
    )
    .argument("<handle...>", "conversations, or their jobs")
    .option("--json", "print the rows as a JSON array")
    .action(lazy(io, async () => (await import("../commands/worktree-commands.js")).compareCommand));
  program
    .command("diff")
    .description("a worktree's branch against its base, as git diff shows it (your pager and colours)")
    .argument("<handle>", "the conversation, or one of its jobs")
    .argument("[paths...]", "only these paths")
    .action(lazy(io, async () => (await import("../commands/worktree-commands.js")).diffCommand));
  program
    .command("apply")
    .description(
      "bring a worktree's changes into your working tree, three-way; on a conflict nothing is written",
    )
    .argument("<handle>", "the conversation, or one of its jobs")
    .option("--commit", "commit them on your current branch instead of leaving them uncommitted")
    .option("--keep-conflicts", "on a conflict, leave git's conflict markers in the files")
    .option("-C, --cwd <dir>", "the checkout to apply to (default: the one the worktree was made from)")
    .action(lazy(io, async () => (await import("../commands/worktree-commands.js")).applyCommand));
}

/** `scv conversations list|show|rm`. */
function addConversationsCommands(program: Command, io: CliIo): void {
  const conversations = program
    .command("conversations")
    .description("scv's conversation records: list, show, rm");
  defaultToList(
    conversations,
    "conversations",
    io,
    async () => (await import("../commands/conversations.js")).conversationsListCommand,
  );
  conversations
    .command("list")
    .description("every conversation: handle, agent, turns, last used, cwd, model, last prompt")
    .option("--json", "print JSON")
    .action(lazy(io, async () => (await import("../commands/conversations.js")).conversationsListCommand));
  conversations
    .command("show")
    .description("one conversation's record")
    .argument("<handle>", "the conversation")
    .option("--json", "print JSON")
    .action(lazy(io, async () => (await import("../commands/conversations.js")).conversationsShowCommand));
  conversations
    .command("rm")
    .description("remove a conversation's record (and with --transcript the agent's transcript of it)")
    .argument("<handle>", "the conversation")
    .option("--transcript", "also remove the agent's transcript of that session")
    .action(lazy(io, async () => (await import("../commands/conversations.js")).conversationsRmCommand));
}

/** What follows turns once they run: `scv wait`, `usage`, `ps`, `top`, `logs`, `kill`. */
function addJobCommands(program: Command, io: CliIo): void {
  program
    .command("wait")
    .description("wait for background turns and print their results")
    .argument("<job...>", "jobs, or conversation handles (all their jobs)")
    .option("--timeout <duration>", "give up waiting after this long")
    .option("--json", "print JSON")
    .action(lazy(io, async () => (await import("../commands/wait.js")).waitCommand));
  program
    .command("usage")
    .description("what delegated turns used and cost, summed from scv's records")
    .option(
      "--since <dur|date>",
      "turns started since: a duration back (7d, 12h) or a date (2026-12-01)",
      "7d",
    )
    .addOption(
      new Option("--by <grouping>", "one row per (default: agent; day with --chart)").choices([
        "agent",
        "account",
        "model",
        "day",
        "conversation",
      ]),
    )
    .addOption(
      new Option("--chart [measure]", "bars of tokens or cost on a terminal (plain numbers elsewhere)")
        .choices(["tokens", "cost"])
        .preset("tokens"),
    )
    .option("--json", "print JSON")
    .action(lazy(io, async () => (await import("../commands/usage.js")).usageCommand));
  program
    .command("ps")
    .description(
      "list running turns (account, tokens so far, state, tool) and the session hosts keeping ACP conversations warm",
    )
    .option("--json", "print JSON")
    .option("-w, --watch", "a live table until q or Ctrl-C (off a terminal: a snapshot every --interval)")
    .option("--interval <duration>", "between redraws with --watch (default 1s)")
    .action(
      lazy(io, async () => {
        const [{ psCommand }, { watchPs }] = await Promise.all([
          import("../commands/ps.js"),
          import("../commands/ps-watch.js"),
        ]);
        return (each: CliIo, options: { watch?: boolean }) =>
          options.watch ? watchPs(each, options) : psCommand(each, options);
      }),
    );
  program
    .command("top")
    .description("scv ps --watch")
    .option("--interval <duration>", "between redraws (default 1s)")
    .action(lazy(io, async () => (await import("../commands/ps-watch.js")).watchPs));
  program
    .command("logs")
    .description("a job's events: tool starts and ends, retries, then its result")
    .argument("<job>", "the job, or a conversation's handle (its running or latest job)")
    .option("-f, --follow", "follow the job until it ends, then print its result")
    .option("--events", "print the events as NDJSON, as delegate --events does")
    .action(lazy(io, async () => (await import("../commands/logs.js")).logsCommand));
  program
    .command("kill")
    .description(
      "stop a running turn and its whole process group; a handle with no running turn: end its session host",
    )
    .argument("<job>", "the turn's job, or its conversation's handle")
    .action(lazy(io, async () => (await import("../commands/kill.js")).killCommand));
}

/** `scv mcp`: the MCP server, and its registration in host apps. */
function addMcpCommands(program: Command, io: CliIo): void {
  const mcp = program
    .command("mcp")
    .description("an MCP server on stdio, for agents to delegate through scv; install <host> registers it")
    .usage("[install|uninstall <host>]")
    .argument("[command]")
    .allowExcessArguments(true)
    .action(async (operand: string | undefined) => {
      if (operand !== undefined) throw unknownCommand("mcp command", operand, mcp);
      io.exitCode = await (await import("../mcp/server.js")).mcpServeCommand(io);
    });
  for (const [name, verb] of [
    ["install", "register scv's MCP server in a host agent's user configuration"],
    ["uninstall", "remove scv's MCP server from a host agent's user configuration"],
  ] as const) {
    mcp
      .command(name)
      .description(`${verb} (${TABLE_TEXT.mcpHosts})`)
      .argument("<host>", "the host agent")
      .option("--dry-run", "print what would be done, change nothing")
      .option(
        "--agent-home",
        "in scv's private home of that agent instead, so delegated turns of it can delegate too",
      )
      .action(
        lazy(io, async () =>
          name === "install"
            ? (await import("../mcp/install.js")).mcpInstallCommand
            : (await import("../mcp/install.js")).mcpUninstallCommand,
        ),
      );
  }
}

/** The detached scv processes scv starts itself; hidden from help. */
function addDetachedCommands(program: Command, io: CliIo): void {
  // The detached scv of `scv delegate --background`: reads its turn as JSON on stdin.
  program
    .command("background-turn", { hidden: true })
    .action(lazy(io, async () => (await import("../commands/background.js")).backgroundTurnCommand));

  // The detached scv that keeps a conversation's ACP server warm: reads its launch as JSON on stdin.
  program
    .command("session-host", { hidden: true })
    .action(lazy(io, async () => (await import("../commands/session-host.js")).sessionHostCommand));
}

/** Runs the command line through commander: the command's exit code, or commander's own for help,
 * the version and usage errors (which it has printed already). */
export async function runProgram(
  argv: readonly string[],
  io: CliIo,
  beforeCommand?: () => Promise<void>,
): Promise<number> {
  try {
    const program = buildProgram(io, beforeCommand, commandsReached(argv));
    if (mayShowHelp(argv)) await describeFromTable(program);
    await program.parseAsync([...argv], { from: "user" });
    return io.exitCode;
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    // Help and version exit 0; commander already printed its own one-line message otherwise.
    return error.code === "commander.helpDisplayed" ||
      error.code === "commander.version" ||
      error.code === "commander.help"
      ? EXIT.ok
      : EXIT.usage;
  }
}
