// Renders docs/agents.md from ADAPTERS, so the per-agent table can never drift from the code.

import {
  type AcpFullPermission,
  ADAPTERS,
  type AdapterDescriptor,
  type Login,
  type Logout,
  type PromptStyle,
  type Resume,
  type Status,
} from "../src/adapters.js";

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
      return `argument, ${dash}${prompt.stdinDash ? "; a lone `-` also on stdin" : ""}`;
    }
    case "flag":
      return `${argv(prompt.args)} value, ${code(`${prompt.joined}…`)} when it begins with \`-\``;
    case "stdin":
      return prompt.trims ? "stdin (which it trims: trailing whitespace as an argument)" : "stdin";
  }
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
  const adapter =
    acp.package === undefined
      ? ""
      : ` (adapter ${code(acp.package)}: \`scv agents install ${entry.name} --acp\`)`;
  const verified = acp.verified.kind === "lab" ? `verified ${acp.verified.version}` : "unverified";
  return `${launch}${adapter}; auto: ${fullKind(acp.full)}; ${verified}`;
}

function row(entry: AdapterDescriptor): string {
  const cells = [
    code(entry.name),
    entry.product,
    code(entry.command),
    entry.packages.length > 0 ? entry.packages.map(code).join(", ") : "not on npm",
    entry.verified.kind === "lab" ? entry.verified.version : "unverified",
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

/** The ACP servers' known limits, as a list after the table. */
function knownLimits(): string[] {
  const known = (ADAPTERS as readonly AdapterDescriptor[]).flatMap((entry) =>
    entry.acp?.known === undefined ? [] : [`- \`${entry.name}\` over ACP: ${entry.acp.known}.`],
  );
  return known.length === 0 ? [] : ["Known limits of ACP servers:", "", ...known, ""];
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
    "credential by family (`src/credentials.ts`; the README's Credential isolation says how).",
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
    ...knownLimits(),
    "scv itself is not a row: the table lists model-backed agent CLIs, and a nested scv is reached by",
    "delegating to one of them, not as an agent of its own.",
    "",
  ].join("\n");
}
