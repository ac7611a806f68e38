// Renders docs/agents.md from ADAPTERS, so the per-agent table can never drift from the code.

import {
  type AcpFullPermission,
  ADAPTERS,
  type AdapterDescriptor,
  type Login,
  type Logout,
  type McpPassing,
  type PromptOnStdin,
  type PromptStyle,
  type Resume,
  type Status,
  type Verified,
} from "../src/adapters.js";
import { renderEndpointsTable } from "./endpoints-doc.js";

function code(text: string): string {
  return `\`${text}\``;
}

function argv(args: readonly string[]): string {
  return args.length === 0 ? "—" : code(args.join(" "));
}

function loginKind(login: Login): string {
  const device = (args: readonly string[] | undefined) =>
    args === undefined ? "" : `; device code: ${code(`-- ${args.join(" ")}`)}`;
  switch (login.kind) {
    case "command":
      return `command ${argv(login.args)} (needs ${login.needs}${device(login.deviceCode)})`;
    case "interactive":
      return `interactive (${login.hint}${device(login.deviceCode)})`;
    case "api-key":
      return `API key → ${login.store.kind}`;
    case "import":
      return `import (${login.files.map((file) => code(`~/${file.from}`)).join(", ")})`;
  }
}

function statusKind(status: Status): string {
  switch (status.kind) {
    case "command":
      return `command ${argv(status.args)}`;
    case "stored":
      return `stored (${status.store.kind})`;
    case "unchecked":
      return "unchecked";
  }
}

function logoutKind(logout: Logout): string {
  switch (logout.kind) {
    case "command":
      return `command ${argv(logout.args)} (needs ${logout.needs})`;
    case "stored":
      return `stored (${logout.store.kind})`;
    case "interactive":
      return "interactive";
  }
}

function promptKind(prompt: PromptStyle): string {
  switch (prompt.kind) {
    case "positional": {
      const dash = prompt.endOfOptions
        ? "after `--` when it begins with `-`"
        : "refused when it begins with `-`";
      return `argument, ${dash}; ${largePrompt(prompt.onStdin)}`;
    }
    case "flag":
      return `${argv(prompt.args)} value, ${code(`${prompt.joined}…`)} when it begins with \`-\`; ${largePrompt(prompt.onStdin)}`;
    case "stdin":
      return prompt.trims ? "stdin (which it trims: trailing whitespace as an argument)" : "stdin";
  }
}

/** What happens to a prompt of 128 KiB or more, which no argument carries. */
function largePrompt(onStdin: PromptOnStdin | undefined): string {
  if (onStdin === undefined) return "from 128 KiB refused";
  const how = onStdin.args.length > 0 ? `stdin with ${argv(onStdin.args)}` : "stdin";
  const strips = {
    nothing: "",
    "strips-end": ", which it strips of whitespace at the end",
    "appends-two-newlines": ", to which it appends two newlines",
  }[onStdin.alters];
  const limit = onStdin.maxBytes === undefined ? "" : ` (refused over ${onStdin.maxBytes / 1024 / 1024} MiB)`;
  const lone = onStdin.args.includes("-") ? "; a lone `-` also on stdin" : "";
  return `from 128 KiB on ${how}${strips}${limit}${lone}`;
}

function resumeKind(resume: Resume): string {
  if (resume.kind === "unsupported") return "no";
  const start = resume.start !== undefined ? `start ${argv(resume.start)}; ` : "id from its stream; ";
  const cont = [...(resume.subcommand ?? []), ...resume.options, ...(resume.positional ?? [])];
  return `${start}continue ${argv(cont)}`;
}

/** Which transports a row has, its default first. */
function transports(entry: AdapterDescriptor): string {
  const has = [entry.cliTurns ? "process" : undefined, entry.acp !== null ? "ACP" : undefined].filter(
    (kind): kind is string => kind !== undefined,
  );
  const fallback = entry.transport === "acp" ? "ACP" : "process";
  return has.length > 1 ? `${has.join(", ")} (default ${fallback})` : `${has[0] ?? "none"} only`;
}

function fullKind(full: AcpFullPermission): string {
  switch (full.kind) {
    case "mode":
      return `mode ${code(full.mode)}`;
    case "option":
      return `option ${code(`${full.option}=${full.value}`)}`;
    case "args":
      return argv(full.args);
    case "none":
      return "—";
  }
}

function acpKind(entry: AdapterDescriptor): string {
  const { acp } = entry;
  if (acp === null) return "—";
  const launch = code([acp.command, ...acp.args.filter((arg) => arg !== "{full}")].join(" "));
  const drives =
    acp.cliPathVariable === undefined
      ? ""
      : `; drives the ${code(entry.command)} scv finds (${code(acp.cliPathVariable)}), else its own`;
  const adapter =
    acp.package === undefined
      ? ""
      : ` (adapter ${code(acp.package)}: \`scv agents install ${entry.name} --acp\`${drives})`;
  const verified = acp.verified.kind === "lab" ? `verified ${acp.verified.version}` : "unverified";
  const settings = (acp.homeSettings?.values ?? []).map(
    ({ path, value }) =>
      `; sets ${code(`${path.join(".")}=${value}`)} in ${code(acp.homeSettings?.file ?? "")}`,
  );
  return `${launch}${adapter}; auto: ${fullKind(acp.full)}${settings.join("")}; ${verified}`;
}

function row(entry: AdapterDescriptor): string {
  const cells = [
    code(entry.name),
    entry.product,
    code(entry.command),
    entry.packages.length > 0
      ? `${entry.packages.map(code).join(", ")}${entry.nodeFloor === undefined ? "" : ` (Node.js ${entry.nodeFloor}+)`}`
      : "not on npm",
    verifiedCell(entry.verified),
    transports(entry),
    acpKind(entry),
    `${entry.output.kind} ${argv(entry.output.args)}`,
    promptKind(entry.prompt),
    resumeKind(entry.resume),
    loginKind(entry.login),
    statusKind(entry.status),
    logoutKind(entry.logout),
    entry.removedEnvironment.map(code).join(" "),
  ];
  return `| ${cells.map((cell) => cell.replaceAll("|", "\\|")).join(" | ")} |`;
}

function retriesCell(entry: AdapterDescriptor): string {
  const bound = entry.retries;
  switch (bound.kind) {
    case "env":
      return `\`max_retries\` in \`[agents.${entry.name}]\` of scv's config (scv sets ${code(bound.variable)})`;
    case "config":
      return `${bound.setting} in ${code(bound.file)} of its agent home`;
    case "none":
      return "no setting";
  }
}

function retriesRow(entry: AdapterDescriptor): string {
  const cells = [code(entry.name), retriesCell(entry), entry.retries.note];
  return `| ${cells.map((cell) => cell.replaceAll("|", "\\|")).join(" | ")} |`;
}

function verifiedText(verified: Verified): string {
  switch (verified.kind) {
    case "lab":
      return `verified (${verified.version})`;
    case "offline":
      return `checked offline (${verified.version}): ${verified.reason}`;
    case "unverified":
      return `unverified: ${verified.reason}`;
  }
}

/** The row's "verified against" cell: the version, marked where only what needs no model was checked. */
export function verifiedCell(verified: Verified): string {
  switch (verified.kind) {
    case "lab":
      return verified.version;
    case "offline":
      return `${verified.version} (offline only)`;
    case "unverified":
      return "unverified";
  }
}

function mcpCells(passing: McpPassing): [string, string, string] {
  switch (passing.kind) {
    case "args-file":
      return [
        `${argv(passing.args)} (${passing.format})`,
        argv(passing.isolate),
        verifiedText(passing.verified),
      ];
    case "config-args":
      return [
        code(`${passing.flag} ${passing.table}.<name>.<key>=<TOML>`),
        "—",
        verifiedText(passing.verified),
      ];
    case "settings-env":
      return [
        `${code(passing.variable)} names a file (${passing.format})`,
        "—",
        verifiedText(passing.verified),
      ];
    case "unsupported":
      return ["—", "—", passing.reason];
  }
}

function mcpRow(entry: AdapterDescriptor): string {
  const cells = [code(entry.name), ...mcpCells(entry.mcpPassing)];
  return `| ${cells.map((cell) => cell.replaceAll("|", "\\|")).join(" | ")} |`;
}

/** Where a CLI keeps its transcripts, relative to its agent home, as far as the row knows. */
function transcripts(entry: AdapterDescriptor): string {
  if (entry.conversationFiles !== null)
    return code(`${entry.conversationFiles.dir}/…/*.${entry.conversationFiles.extension}`);
  if (entry.resume.kind === "supported" && entry.resume.sessionPath !== undefined)
    return `${code(`${entry.resume.sessionPath.replace("{session}", "<session>")}/`)} (a folder per session)`;
  return "not known to scv";
}

function ownVariables(entry: AdapterDescriptor): string {
  if (entry.homeEnvironment.length === 0) return "— (`HOME`, `XDG_*`)";
  return entry.homeEnvironment
    .map(([name, dir]) => `${code(name)} = ${dir === "" ? "the agent home itself" : code(dir)}`)
    .join(", ");
}

export const AGENT_FILES_START = "<!-- agent-files: generated from src/adapters.ts by `npm run docs` -->";
export const AGENT_FILES_END = "<!-- /agent-files -->";

/** docs/files.md's table of each CLI's own files inside its agent home, between its markers. */
export function renderAgentFiles(): string {
  const header = ["agent", "its home variables", "its settings file", "its transcripts"];
  return [
    AGENT_FILES_START,
    `| ${header.join(" | ")} |`,
    `| ${header.map(() => "---").join(" | ")} |`,
    ...ADAPTERS.map((entry) => {
      const settings = `${code(entry.ownConfig.file)}${entry.ownConfig.signsIn ? " (a provider and its key there sign it in)" : ""}`;
      const cells = [code(entry.name), ownVariables(entry), settings, transcripts(entry)];
      return `| ${cells.map((cell) => cell.replaceAll("|", "\\|")).join(" | ")} |`;
    }),
    AGENT_FILES_END,
  ].join("\n");
}

/** `page` (docs/files.md) with its agent-files table replaced by today's. */
export function withAgentFiles(page: string): string {
  const start = page.indexOf(AGENT_FILES_START);
  const end = page.indexOf(AGENT_FILES_END);
  if (start === -1 || end < start) throw new Error("docs/files.md has no agent-files markers");
  return page.slice(0, start) + renderAgentFiles() + page.slice(end + AGENT_FILES_END.length);
}

/** The ACP servers' known limits, and what scv sets in their homes about them, as a list after the table. */
function knownLimits(): string[] {
  const known = (ADAPTERS as readonly AdapterDescriptor[]).flatMap((entry) => [
    ...(entry.acp?.known === undefined ? [] : [`- \`${entry.name}\` over ACP: ${entry.acp.known}.`]),
    ...(entry.acp?.homeSettings?.values ?? []).map(
      ({ path, value, why }) =>
        `- \`${entry.name}\` over ACP: ${why}; scv sets \`${path.join(".")}\` to ${value} in its home's \`${entry.acp?.homeSettings?.file}\`.`,
    ),
  ]);
  return known.length === 0 ? [] : ["Known limits of ACP servers:", "", ...known, ""];
}

/** What a review turn runs each agent with (its row's `family` and `review`): src/review/. */
function reviewSection(): string[] {
  const schemaCell = (entry: AdapterDescriptor): string => {
    const schema = entry.review.schema;
    switch (schema.kind) {
      case "file":
        return `${argv(schema.args)} (a file)`;
      case "inline":
        return `${argv(schema.args)} (the schema itself)`;
      case "prompt":
        return "— (asked in the prompt)";
    }
  };
  const cells = (entry: AdapterDescriptor) => [
    code(entry.name),
    entry.family === null ? "by its model" : code(entry.family),
    entry.review.readOnlyArgs.length === 0 ? "— (asked in the prompt)" : argv(entry.review.readOnlyArgs),
    schemaCell(entry),
  ];
  return [
    "## Reviews",
    "",
    "How a review turn runs each agent (`src/review/`). Its model family keeps a review from going to",
    "the author's own kind (`--reviewers auto`); \"by its model\" is a CLI that runs many makers' models,",
    "whose family is read from the model's id. A reviewer reads the tree and changes nothing: the",
    "read-only arguments replace the policy's full-permission ones, on a first and a continued turn",
    "alike, and the structured-output option holds the reply to the findings' JSON Schema",
    "(`docs/review-findings.schema.json`), else the prompt asks for it and scv checks what comes back.",
    "Each comes from the CLI's own `--help` (or its code) at the version in the first table.",
    "",
    "| agent | model family | read-only | structured output |",
    "| --- | --- | --- | --- |",
    ...(ADAPTERS as readonly AdapterDescriptor[]).map(
      (entry) =>
        `| ${cells(entry)
          .map((cell) => cell.replaceAll("|", "\\|"))
          .join(" | ")} |`,
    ),
    "",
  ];
}

/** What scv keeps in an agent's own settings file before every start of its CLI (the rows'
 * `homeSettings`), and why. */
function homeSettingsSection(): string[] {
  const items = (ADAPTERS as readonly AdapterDescriptor[]).flatMap((entry) =>
    (entry.homeSettings?.values ?? []).map(
      ({ path, value, why }) =>
        `- \`${entry.name}\`: scv sets \`${path.join(".")}\` to ${value} in its home's \`${entry.homeSettings?.file}\` before every start (a turn over either transport, \`scv attach\`, \`scv run\`, its own sign-in): ${why}.`,
    ),
  );
  return items.length === 0
    ? []
    : [
        "## Settings scv keeps in agent homes",
        "",
        "The rest of the file, the key in it too, is kept as it was (0600).",
        "",
        ...items,
        "",
      ];
}

/** How `scv attach` opens each agent's own UI on a conversation (its row's `takeover`), or why not. */
function takeoverSection(): string[] {
  const cell = (entry: AdapterDescriptor): string => {
    const takeover = entry.takeover;
    switch (takeover.kind) {
      case "supported":
        return `${argv([entry.command, ...takeover.args])}${takeover.fullArgs.length > 0 ? `; \`--policy auto\` adds ${argv(takeover.fullArgs)}` : ""}; ${takeover.verified === undefined ? "unverified" : verifiedText(takeover.verified)}`;
      case "refused":
        return `refused: ${takeover.reason}`;
      case "unsupported":
        return "no interactive resume known";
    }
  };
  return [
    "## Taking a conversation over",
    "",
    "What `scv attach <handle>` runs, in the agent home with a delegated turn's environment and the",
    "conversation's folder (`{session}` is the conversation's session id), followed by the row's model",
    'flag with the conversation\'s model, or why it does not. "verified" names the CLI version the',
    "contract suite (`test/real/attach.test.ts`, under tmux) opened a session scv started with, typed a",
    "message there the mock model answered, left, and continued with `scv delegate -c` — under the",
    "UI's own defaults; the `--policy auto` switches are taken from each CLI's help.",
    "",
    "| agent | `scv attach` |",
    "| --- | --- |",
    ...(ADAPTERS as readonly AdapterDescriptor[]).map((entry) => `| \`${entry.name}\` | ${cell(entry)} |`),
    "",
  ];
}

export function renderAgentsDoc(): string {
  const header = [
    "agent",
    "product",
    "binary",
    "npm package",
    "verified against",
    "transports",
    "ACP server",
    "output format",
    "prompt",
    "resume",
    "login",
    "status",
    "logout",
    "removed variables",
  ];
  return [
    "# Agents",
    "",
    "<!-- Generated from src/adapters.ts by `npm run docs`; a test fails when this file is stale. -->",
    "",
    "One row per entry of `ADAPTERS`. Every agent's removed variables are removed from *every* delegated",
    "agent, together with scv's own `SCV_*`, any `*_API_KEY` and every model-provider, cloud and agent",
    "credential by family (`src/credentials.ts`; [isolation.md](isolation.md) says how).",
    '"Verified against" is the CLI version the lab and the contract suite (`npm run test:real`) drove;',
    "unverified rows (not on npm) keep the facts of the descriptor scv was modelled on.",
    "",
    "Transports: `process` runs the CLI once per turn; `ACP` starts its Agent Client Protocol server for",
    'the turn (`--transport acp`, or `transport = "acp"` under `[agents.<name>]` in the config). The',
    "ACP column gives the launch, what `--policy auto` sets in the session, and whether that server",
    "was run here against the loopback mock (the contract suite's `test/real/acp.test.ts`).",
    "",
    `| ${header.join(" | ")} |`,
    `| ${header.map(() => "---").join(" | ")} |`,
    ...ADAPTERS.map(row),
    "",
    "## Retries",
    "",
    "How to bound each CLI's own retries of a failed model request (a rate limit, an overloaded API).",
    "scv sets the bound where the CLI reads it from one variable; elsewhere the CLI's own config file in",
    "its agent home (`$SCV_HOME/agents/<agent>/…`) is where it goes, and `max_retries` is refused with",
    "that path. Whatever the bound, a retried 401 ends the turn at its first retry (exit 4), and each",
    "retry shows as a `retry` event and a progress line.",
    "",
    "| agent | bound | without it |",
    "| --- | --- | --- |",
    ...ADAPTERS.map(retriesRow),
    "",
    "## MCP servers",
    "",
    "How a per-turn CLI gets the `[mcp_servers]` a turn names (`--mcp`, or `mcp` under `[agents.<name>]`),",
    "and what keeps out the servers it would otherwise load (the project's, its own) on every turn,",
    "servers or none. What scv renders is written 0600 into the turn's private TMPDIR and removed with",
    "it; a stdio server's `env` goes to a file of its own that `/bin/sh` sources before it runs the",
    "server, never onto a command line. Over ACP, servers go in `session/new` (`session/load`).",
    "",
    "| agent | servers given as | others kept out by | checked |",
    "| --- | --- | --- | --- |",
    ...ADAPTERS.map(mcpRow),
    "",
    "## Endpoints of your own",
    "",
    "How `base_url` and `api_key_env` under `[agents.<name>]` reach each CLI ([endpoints.md](endpoints.md)).",
    "Everything is given for the turn only: no file of the CLI's own is written",
    "(but Gemini CLI's chosen sign-in, where none is chosen), and the key's value goes only into the",
    'agent\'s environment, under the variable named here. "Verified" names the version the contract',
    "suite (`test/real/endpoint.test.ts`) ran a turn and a continued one with, configured only so.",
    "",
    renderEndpointsTable(),
    "",
    ...takeoverSection(),
    ...reviewSection(),
    ...homeSettingsSection(),
    ...knownLimits(),
    "scv itself is not a row: the table lists model-backed agent CLIs, and a nested scv is reached by",
    "delegating to one of them, not as an agent of its own.",
    "",
    ...TURN_END_NOTES,
  ].join("\n");
}

/** What the CLIs' real streams showed of retries and the end of a turn (test/parsers/retries.test.ts
 * replays the captures): facts about the CLIs, not the table, so kept here as prose. */
const TURN_END_NOTES: readonly string[] = [
  "## When a turn is over",
  "",
  "A turn ends when the CLI exits, or 5 s (`endGrace`, `src/timing.ts`) after its own",
  "end-of-turn event (its final result, or an error it reports as terminal) if it is still running",
  "then: scv ends its whole process group, and the CLI's verdict stands (a success is a completed turn",
  "with its reply, exit 0). A retry, a new tool call or more reply text after that event withdraws it:",
  "the CLI was not finished. Where each CLI puts its retries, from captures of a 429 answered by a",
  "success and of 429s until it gave up (`test/fixtures/<cli>/retry-*`, retries set to 2):",
  "",
  "| CLI | retries reported as | relative to the terminal event |",
  "| --- | --- | --- |",
  "| claude | `system/api_retry` | before its one `result` |",
  "| codex | `error` `Reconnecting... n/N` | before `turn.completed` / `turn.failed` |",
  "| pi | `auto_retry_start`, `auto_retry_end` | **after** each failed attempt's `agent_end` (stopReason `error`); `auto_retry_end {success:false}` after the last `agent_end` |",
  "| gemini | nothing on stdout (stderr `Attempt n failed`) | before its one `result` |",
  "| qwen | `system/retry` | before its one `result` |",
  "| opencode | nothing (silent retries) | before `step_finish` / `error` |",
  "| copilot | `assistant.turn_retry` | before `session.error` and `result` |",
  "",
];
