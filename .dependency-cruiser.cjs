// The module rules `npm run check` holds src/ to (docs/architecture.md explains the layers): no
// import cycle, and no layer importing from one above it. Lower to higher: os, process (every
// process scv starts), parsers and home (storage) at the bottom, then transport (one CLI as a
// process), agents (an installed agent: its CLI, version, sign-in), worktrees (git worktrees), review
// (reviews: diffs, findings, verdicts), session hosts (a warm ACP server between turns), turn (one
// turn, plan → run → conclude), jobs (background turns), and at the top commands, cli and mcp, which
// print; mcp is the command line's peer and imports neither commands nor cli. The shared files
// directly in src/ are below them all: they import only the table (and name the events' types).
//
// ACP lives in one folder, src/acp/, whose parts sit in the layers they belong to: its events
// (acp/events/, pure parsing) with parsers, its client (acp/client/, an ACP server as a process)
// with transport, its session hosts (acp/session-host/) above transport and below the turn that
// reaches them, and its turn (acp/turn/) with turn.

/** Each layer's folders under src/. */
const FOLDERS = {
  os: ["os"],
  process: ["process"],
  parsers: ["parsers", "acp/events"],
  home: ["home"],
  transport: ["transport", "acp/client"],
  agents: ["agents"],
  worktrees: ["worktrees"],
  review: ["review"],
  sessionHost: ["acp/session-host"],
  turn: ["turn", "acp/turn"],
  jobs: ["jobs"],
  commands: ["commands"],
  cli: ["cli"],
  mcp: ["mcp"],
};

/** What src/process/ (every process scv starts) must never import from: all but os/ and the shared
 * files. */
const ABOVE_PROCESS = [
  "parsers",
  "home",
  "transport",
  "agents",
  "worktrees",
  "review",
  "sessionHost",
  "turn",
  "jobs",
  "commands",
  "cli",
  "mcp",
];

/** Each layer, and the layers it must never import from. */
const BELOW = {
  os: ["process", ...ABOVE_PROCESS],
  parsers: ["process", "os", ...ABOVE_PROCESS.filter((layer) => layer !== "parsers")],
  // Every process scv starts (src/process/): one spawn, one kill story; above os/, below the rest.
  process: ABOVE_PROCESS,
  home: [
    "transport",
    "agents",
    "worktrees",
    "review",
    "sessionHost",
    "turn",
    "jobs",
    "commands",
    "cli",
    "mcp",
  ],
  transport: ["agents", "worktrees", "review", "sessionHost", "turn", "jobs", "commands", "cli", "mcp"],
  // An installed agent (src/agents/): where its CLI is, its version, its sign-in; what the command
  // line and the MCP server both show of it.
  agents: ["worktrees", "review", "sessionHost", "turn", "jobs", "commands", "cli", "mcp"],
  // Git worktrees owned by conversations (src/worktrees/): git's CLI through os/, folders through
  // home/, a check's environment through transport/; turns and commands use them.
  worktrees: ["review", "sessionHost", "turn", "jobs", "commands", "cli", "mcp"],
  // Reviews (src/review/): the diff through worktrees/' git, findings, verdicts, reports; a review's
  // turns are handed in by the commands that run them.
  review: ["sessionHost", "turn", "jobs", "commands", "cli", "mcp"],
  // Session hosts (src/acp/session-host/) keep an ACP turn's server between turns: a turn reaches
  // them, never the reverse (what both need, a turn's TMPDIR and whether its scv lives, is in home/).
  sessionHost: ["worktrees", "review", "turn", "jobs", "commands", "cli", "mcp"],
  turn: ["jobs", "commands", "cli", "mcp"],
  jobs: ["commands", "cli", "mcp"],
  // The MCP server is a peer of the command line, not a user of it: what both show lives below them
  // (src/io.ts, src/duration.ts, src/agents/, review/render-text.ts).
  mcp: ["commands", "cli"],
};

/** A path pattern matching any of the layers' folders. */
function under(layers) {
  const folders = layers.flatMap((layer) => FOLDERS[layer]);
  return `^src/(${folders.join("|")})/`;
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      comment: "A cycle makes two modules one idea in two files: move what both need below them.",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
    ...Object.entries(BELOW).map(([layer, higher]) => ({
      name: `${layer}-below-${higher.join("-")}`,
      comment: `${FOLDERS[layer].map((each) => `src/${each}/`).join(", ")} is a lower layer: it must not import from ${higher
        .flatMap((each) => FOLDERS[each])
        .map((each) => `src/${each}/`)
        .join(", ")}.`,
      severity: "error",
      from: { path: under([layer]) },
      to: { path: under(higher) },
    })),
    {
      name: "table-at-the-bottom",
      comment:
        "The table's rows (src/table/) and its schema (src/descriptor/) are what every layer reads: they import only each other and src/lazy.ts.",
      severity: "error",
      from: { path: "^src/(descriptor|table)/" },
      to: { path: "^src/", pathNot: "^src/(descriptor/|table/|lazy\\.ts$)" },
    },
    {
      name: "rows-without-zod",
      comment:
        "The registry and the rows read the schema's types only: a plain turn must not build (or load) the schema it does not run.",
      severity: "error",
      from: { path: "^src/(adapters\\.ts$|table/)" },
      to: { path: "^src/descriptor/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "shared-files-at-the-bottom",
      comment:
        "The shared files directly in src/ are below every layer: their code imports only each other and the table (src/descriptor/, src/table/).",
      severity: "error",
      // src/json-documents.ts is no shared module: the catalogue of what scv prints with --json, read
      // by `npm run docs` and the tests only, so it names shapes from any layer (the review's report).
      from: { path: "^src/[^/]+\\.ts$", pathNot: "^src/json-documents\\.ts$" },
      to: { path: "^src/[^/]+/", pathNot: "^src/(descriptor|table)/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "shared-files-name-the-events",
      comment:
        "A shared file may name the normalized events' types (src/parsers/event-types.ts) and nothing else of a layer; src/json-shapes.ts the types of home/'s records it prints too.",
      severity: "error",
      from: { path: "^src/[^/]+\\.ts$", pathNot: "^src/json-(documents|shapes)\\.ts$" },
      to: { path: "^src/[^/]+/", pathNot: "^src/(descriptor/|table/|parsers/event-types\\.ts$)" },
    },
    {
      name: "json-shapes-name-home-records",
      comment:
        "src/json-shapes.ts makes the --json documents from scv's own values: it may name the records home/ keeps, and nothing else of a layer.",
      severity: "error",
      from: { path: "^src/json-shapes\\.ts$" },
      to: { path: "^src/[^/]+/", pathNot: "^src/(descriptor/|table/|parsers/event-types\\.ts$|home/)" },
    },
  ],
  options: {
    includeOnly: "^src/",
    // Type-only imports count: a cycle through types is still two modules that need each other.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
