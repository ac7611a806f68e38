// Help texts that name agents from the table (issue 35: help lists agents from the table), filled in
// only when help may be shown: the table's rows and the MCP hosts are loaded for that, so that
// `scv --version`, and every command until its own work needs the table, start without them. A text
// in cli/program.ts names a TABLE_TEXT token; describeFromTable replaces the tokens in every
// command's, argument's and option's description.

import type { Command } from "commander";
import type { AdapterDescriptor } from "../adapters.js";

/** The tokens help texts hold until describeFromTable fills them in. */
export const TABLE_TEXT = {
  /** The first example agent (`EXAMPLE_AGENTS[0]` in src/adapters.ts). */
  agent: "{agent}",
  /** The second example agent (`EXAMPLE_AGENTS[1]`). */
  otherAgent: "{other-agent}",
  /** An account of the first example agent (`<agent>@work`). */
  account: "{account}",
  /** The sign-ins `agents login --import` copies, by the rows that allow it: `<agent>: ~/<file>`. */
  signIns: "{sign-ins}",
  /** The agents with an ACP adapter to install, comma-separated. */
  acpAgents: "{acp-agents}",
  /** The agents scv's MCP server can be registered in, comma-separated. */
  mcpHosts: "{mcp-hosts}",
} as const;

/** Whether parsing `argv` may print a command's help: a help flag or a `help` command before `--`
 * (a short flag among others, `-qh`, too). Other commands run without their help texts. */
export function mayShowHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  return (end === -1 ? argv : argv.slice(0, end)).some(
    (arg) => arg === "help" || arg === "--help" || /^-[^-]*h/.test(arg),
  );
}

/** Replaces the TABLE_TEXT tokens in the descriptions of `program` and all its commands. */
export async function describeFromTable(program: Command): Promise<void> {
  const [{ ADAPTERS, EXAMPLE_AGENTS }, { shippedHostApps }] = await Promise.all([
    import("../adapters.js"),
    import("../mcp/host-apps.js"),
  ]);
  // The shipped rows, as the descriptor type (not each row's literal type).
  const rows: readonly AdapterDescriptor[] = ADAPTERS;
  const names = (rows: readonly { readonly name: string }[]) => rows.map((entry) => entry.name).join(", ");
  const values: Readonly<Record<string, string>> = {
    [TABLE_TEXT.agent]: EXAMPLE_AGENTS[0],
    [TABLE_TEXT.otherAgent]: EXAMPLE_AGENTS[1],
    [TABLE_TEXT.account]: `${EXAMPLE_AGENTS[0]}@work`,
    [TABLE_TEXT.signIns]: rows
      .flatMap((entry) => {
        const login = entry.login;
        const files =
          login.kind === "import" ? login.files : login.kind === "api-key" ? undefined : login.import;
        return files === undefined
          ? []
          : [`${entry.name}: ${files.map((file) => `~/${file.from}`).join(", ")}`];
      })
      .join("; "),
    [TABLE_TEXT.acpAgents]: names(rows.filter((entry) => entry.acp?.package !== undefined)),
    [TABLE_TEXT.mcpHosts]: names(shippedHostApps().map(({ entry }) => entry)),
  };
  const fill = (text: string) => text.replace(/\{[a-z-]+\}/g, (token) => values[token] ?? token);
  const describe = (command: Command): void => {
    command.description(fill(command.description()));
    for (const argument of command.registeredArguments) argument.description = fill(argument.description);
    for (const option of command.options) option.description = fill(option.description);
    for (const sub of command.commands) describe(sub);
  };
  describe(program);
}
