// `scv agents …`: the agent CLIs scv knows, their sign-ins, installs and leftovers.

import type { Command } from "commander";
import type { CliIo } from "../io.js";
import { defaultToList, lazy } from "./command-actions.js";
import { TABLE_TEXT } from "./table-help.js";

export function addAgentsCommands(program: Command, io: CliIo): void {
  const agents = program
    .command("agents")
    .description("the agent CLIs scv knows: list, status, show, login, logout, install, check, gc");

  agents
    .command("list")
    .description("every agent: installed? where, which version, what its row supports")
    .option("--json", "print JSON")
    .action(lazy(io, async () => (await import("../commands/agents-list.js")).agentsListCommand));

  agents
    .command("status")
    .description(
      "sign-in state of one or every agent, never printing a secret (one agent: exit 4 when signed out)",
    )
    .argument("[agent[@account]]", `one agent, or one account of it (${TABLE_TEXT.account})`)
    .option("--json", "print JSON")
    .action(lazy(io, async () => (await import("../commands/agents-status.js")).agentsStatusCommand));

  agents
    .command("show")
    .description("one agent's row: its command line, prompt, output, resume, sign-in, where it is defined")
    .argument("<agent>", "the agent")
    .option("--json", "print the row as JSON")
    .action(lazy(io, async () => (await import("../commands/agents-show.js")).agentsShowCommand));

  agents
    .command("login")
    .description(`sign an agent in inside its private home (an account's own: ${TABLE_TEXT.account})`)
    .argument("<agent[@account]>", `the agent, or one account of it (${TABLE_TEXT.account})`)
    .argument("[extra...]", "arguments after -- go to the CLI's own sign-in")
    .option(
      "--with-api-key",
      "read an API key from stdin (from a terminal: without echo), never from an argument",
    )
    .option("--import", `copy your own sign-in of that CLI where its row allows (${TABLE_TEXT.signIns})`)
    .action(lazy(io, async () => (await import("../commands/agents-login.js")).agentsLoginCommand));

  agents
    .command("logout")
    .description(`sign an agent out of its private home (an account's own: ${TABLE_TEXT.account})`)
    .argument("<agent[@account]>", `the agent, or one account of it (${TABLE_TEXT.account})`)
    .action(lazy(io, async () => (await import("../commands/agents-logout.js")).agentsLogoutCommand));

  agents
    .command("install")
    .description("install an agent's npm package into scv's own prefix")
    .argument("<agent>", "the agent")
    .option("--acp", `install the agent's ACP adapter (${TABLE_TEXT.acpAgents}) instead of its CLI`)
    .option("--force", "reinstall")
    .action(lazy(io, async () => (await import("../commands/agents-install.js")).agentsInstallCommand));

  agents
    .command("check")
    .description("run one tiny real turn and report whether the agent (or one account of it) is signed in")
    .argument("<agent[@account]>", `the agent, or one account of it (${TABLE_TEXT.account})`)
    .option("--json", "print JSON")
    .option("--timeout <dur>", "how long the turn may take (default 3m)")
    .action(lazy(io, async () => (await import("../commands/agents-status.js")).agentsCheckCommand));

  agents
    .command("gc")
    .description("remove old transcripts, conversation records and leftovers")
    .argument("[agent]", "one agent")
    .option("--older-than <duration>", "threshold (default 30d, at least 1h)")
    .option("--dry-run", "list what would go, with sizes")
    .option("--force", "also remove worktrees whose branch holds work neither merged nor applied")
    .option("--json", "print JSON")
    .action(lazy(io, async () => (await import("../commands/gc.js")).gcCommand));

  defaultToList(
    agents,
    "agents",
    io,
    async () => (await import("../commands/agents-list.js")).agentsListCommand,
  );
}
