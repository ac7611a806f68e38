// What a review turn adds to each pinned CLI's command line (its row's `review`, src/review/
// agent-args.ts) is in that CLI's own help, with the values the row gives: the read-only switch and
// the structured-output option, on a first turn's command and, where the CLI continues with a
// command of its own (`codex exec resume`), on that one too. A row that guessed a flag, or a CLI that
// dropped one, fails here naming the CLI, its pinned version and the missing text.

import { describe, expect, it } from "vitest";
import { ADAPTERS, type AdapterDescriptor } from "../../src/adapters.js";
import { reviewTurnArgs } from "../../src/review/agent-args.js";
import { baseEnv, runCli, tempHome } from "./env.js";
import { linkCopilotCache, sharedCopilotPkg } from "./harness.js";
import { BIN, pinVersion } from "./kit.js";

/** The help commands that list each CLI's options for a headless turn and for its continuation, and
 * text each must show for the row's values (a choice listed, an example given). */
const HELP: Readonly<
  Record<string, { readonly commands: readonly string[][]; readonly shows: readonly RegExp[] }>
> = {
  claude: {
    commands: [["--help"]],
    shows: [/--permission-mode <mode>[\s\S]*"plan"/, /--json-schema <schema>/],
  },
  codex: {
    commands: [
      ["exec", "--help"],
      ["exec", "resume", "--help"],
    ],
    shows: [/-c, --config <key=value>/, /--output-schema <FILE>/],
  },
  gemini: { commands: [["--help"]], shows: [/--approval-mode[^\n]*plan \(read-only mode\)/] },
  qwen: {
    commands: [["--help"]],
    shows: [/--approval-mode[^\n]*plan \(Analyze only, do not modify files/, /--json-schema[^\n]*"@path/],
  },
  pi: { commands: [["--help"]], shows: [/Read-only mode[^\n]*\n\s*pi --tools read,grep,find,ls/] },
  opencode: { commands: [["run", "--help"]], shows: [/--agent\s+agent to use/] },
  copilot: { commands: [["--help"]], shows: [/--deny-tool \[<tools>\.\.\.\]/] },
  cline: { commands: [["--help"]], shows: [/-p, --plan\s+Run in plan mode/] },
  auggie: {
    commands: [["--help"]],
    shows: [/-a, --ask\s+Enable ask mode for retrieval and non-editing tools only/],
  },
};

/** The option names among `args` (`--deny-tool=write` → `--deny-tool`). */
function optionNames(args: readonly string[]): string[] {
  return args.filter((arg) => arg.startsWith("-")).map((arg) => arg.replace(/=.*$/, ""));
}

describe.skipIf(BIN === undefined)("review arguments in the pinned CLIs' help", () => {
  const rows = (ADAPTERS as readonly AdapterDescriptor[]).filter((row) => HELP[row.name] !== undefined);

  it("covers every shipped row that gives a reviewer arguments", () => {
    const giving = (ADAPTERS as readonly AdapterDescriptor[])
      .filter((row) => reviewTurnArgs(row, "/f").args.length > 0)
      .map((row) => row.name);
    // claude-ai is the same CLI as claude.
    expect(giving.filter((name) => name !== "claude-ai")).toEqual(rows.map((row) => row.name));
  });

  for (const row of rows) {
    const help = HELP[row.name];
    if (help === undefined) continue;
    it(`${row.name}: ${optionNames(reviewTurnArgs(row, "/f").args).join(", ")}`, async () => {
      await using home = await tempHome("scv-review-flags-");
      if (row.name === "copilot")
        linkCopilotCache(home.home, sharedCopilotPkg(BIN ?? "", pinVersion("copilot")));
      const version = row.verified.kind === "lab" ? row.verified.version : "unverified";
      for (const command of help.commands) {
        const run = await runCli([row.command, ...command], {
          cwd: home.cwd,
          env: baseEnv(home.home, BIN ?? ""),
          timeoutMs: 120_000,
        });
        const text = `${run.stdout}${run.stderr}`;
        const where = `${row.command} ${command.join(" ")} (${version})`;
        expect(run.code, `${where}: ${text}`).toBe(0);
        for (const option of optionNames(reviewTurnArgs(row, "/f").args)) {
          expect(text.includes(option), `${where} does not list ${option}`).toBe(true);
        }
        for (const shown of help.shows) expect(text, `${where} does not show ${shown}`).toMatch(shown);
      }
    });
  }
});
