// `scv agents list`: every agent, whether its CLI is installed and where, its version, and what its
// row supports.

import { ADAPTERS, type AdapterDescriptor } from "../adapters.js";
import { capabilities, locateAgent } from "../agents.js";
import type { CliIo } from "../cli/io.js";
import { loadConfig } from "../config.js";
import { agentHome } from "../home/paths.js";
import { runBounded } from "../transport/bounded.js";
import { agentEnvironment } from "../transport/env.js";
import { renderTable } from "./table.js";

// Every installed CLI is probed at once: on two cores gemini, pi, opencode and amp took 5–7 s to
// answer `--version` together (1.5–3 s alone), so 3 s dropped their versions (contract suite).
const VERSION_TIMEOUT_MS = 15_000;

export interface AgentListing {
  readonly name: string;
  readonly product: string;
  readonly installed: boolean;
  readonly path: string | null;
  readonly version: string | null;
  readonly resume: boolean;
  readonly structuredOutput: boolean;
  readonly acp: boolean;
  readonly verified: string;
}

/** The first version-looking token of a `--version` answer. */
export function parseVersion(output: string): string | null {
  const match = /\d+\.\d+(?:\.\d+)?(?:[-+][0-9A-Za-z.-]+)?/.exec(output);
  return match ? match[0] : null;
}

async function probeVersion(
  entry: AdapterDescriptor,
  path: string,
  env: NodeJS.ProcessEnv,
): Promise<string | null> {
  // The agent's own isolated environment, so a version check never reads the user's credentials;
  // its home is not created for it (the CLI may not even write there).
  const result = await runBounded(path, ["--version"], {
    env: agentEnvironment({ parent: env, entry, home: agentHome(entry.name, env), policy: "default" }),
    timeoutMs: VERSION_TIMEOUT_MS,
    maxBytes: 4096,
  });
  if (result.timedOut || result.code !== 0) return null;
  return parseVersion(`${result.stdout}\n${result.stderr}`);
}

export async function listAgents(env: NodeJS.ProcessEnv): Promise<AgentListing[]> {
  const { config } = loadConfig(env);
  return Promise.all(
    ADAPTERS.map(async (entry): Promise<AgentListing> => {
      const path = locateAgent(entry, config, env) ?? null;
      const caps = capabilities(entry);
      return {
        name: entry.name,
        product: entry.product,
        installed: path !== null,
        path,
        version: path === null ? null : await probeVersion(entry, path, env),
        resume: caps.resume,
        structuredOutput: caps.structured,
        acp: caps.acp,
        verified: entry.verified.kind === "lab" ? entry.verified.version : "unverified",
      };
    }),
  );
}

export async function agentsListCommand(io: CliIo, options: { json?: boolean }): Promise<number> {
  const listings = await listAgents(io.env);
  if (options.json) {
    io.stdout.write(`${JSON.stringify(listings, null, 2)}\n`);
    return 0;
  }
  const yes = (flag: boolean) => (flag ? "yes" : "-");
  io.stdout.write(
    renderTable(
      ["AGENT", "PRODUCT", "INSTALLED", "VERSION", "RESUME", "STRUCTURED", "ACP"],
      listings.map((row) => [
        row.name,
        row.product,
        row.path ?? "not installed",
        row.version ?? "-",
        yes(row.resume),
        yes(row.structuredOutput),
        yes(row.acp),
      ]),
    ),
  );
  return 0;
}
