// `scv agents list`: every agent, whether its CLI is installed and where, its version, and what its
// row supports.

import { availableParallelism } from "node:os";
import PQueue from "p-queue";
import { allAdapters } from "../adapters.js";
import { capabilities, locateAgent, verification } from "../agents/lookup.js";
import { agentVersion } from "../agents/version.js";
import { agentSettings, loadConfig } from "../home/config.js";
import type { CliIo } from "../io.js";
import type { AgentListingJson } from "../json-shapes.js";
import { renderTable } from "./table.js";

export interface AgentListing {
  readonly name: string;
  readonly product: string;
  /** What the agent offers, for choosing one. */
  readonly offers: string;
  readonly installed: boolean;
  readonly path: string | null;
  readonly version: string | null;
  readonly resume: boolean;
  readonly structuredOutput: boolean;
  readonly acp: boolean;
  /** The CLI version its row was checked against, or "unverified". */
  readonly verified: string;
  /** What was checked at that version: `turns` (whole turns against a loopback mock), `offline`
   * (what needs no model: its version, scv's arguments, its signed-out status; its turns are
   * unverified), or `none`. */
  readonly checked: "turns" | "offline" | "none";
}

export async function listAgents(env: NodeJS.ProcessEnv): Promise<AgentListing[]> {
  const { config } = loadConfig(env);
  // CLIs asked `--version` take a core each for a second or more: all at once on two cores, each
  // waited for the others and came near its own time limit (18 s for eight in one contract run).
  // As many at a time as there are cores, each gets its limit to itself.
  const probes = new PQueue({ concurrency: Math.max(2, availableParallelism()) });
  return Promise.all(
    allAdapters().map(async (entry): Promise<AgentListing> => {
      const path = locateAgent(entry, config, env) ?? null;
      const caps = capabilities(entry);
      return {
        name: entry.name,
        product: entry.product,
        offers: entry.offers,
        installed: path !== null,
        path,
        version:
          path === null
            ? null
            : await probes.add(() =>
                agentVersion({
                  entry,
                  executable: path,
                  env,
                  extra: agentSettings(config, entry.name).env,
                  isolation: config.isolation,
                }),
              ),
        resume: caps.resume,
        structuredOutput: caps.structured,
        acp: caps.acp,
        verified: verification(entry.verified).version ?? "unverified",
        checked: verification(entry.verified).checked,
      };
    }),
  );
}

/** The listing's columns (docs/commands.md explains each). */
export const LIST_COLUMNS = [
  "AGENT",
  "PRODUCT",
  "INSTALLED",
  "VERSION",
  "RESUME",
  "STRUCTURED",
  "ACP",
  "VERIFIED",
] as const;

/** The VERIFIED cell: the version the row was checked against, `(offline only)` where its turns
 * could not be (the CLI talks only to its vendor), `-` for a row never checked. */
function verifiedCell(row: AgentListing): string {
  switch (row.checked) {
    case "turns":
      return row.verified;
    case "offline":
      return `${row.verified} (offline only)`;
    default:
      return "-";
  }
}

export async function agentsListCommand(io: CliIo, options: { json?: boolean }): Promise<number> {
  const listings = await listAgents(io.env);
  if (options.json) {
    const shown: readonly AgentListingJson[] = listings;
    io.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
    return 0;
  }
  const yes = (flag: boolean) => (flag ? "yes" : "-");
  io.stdout.write(
    renderTable(
      [...LIST_COLUMNS],
      listings.map((row) => [
        row.name,
        row.product,
        row.path ?? "not installed",
        row.version ?? "-",
        yes(row.resume),
        yes(row.structuredOutput),
        yes(row.acp),
        verifiedCell(row),
      ]),
    ),
  );
  return 0;
}
