// What every command does before its own work: the agents of the user's config join the table, a
// relative SCV_HOME is refused, and what killed turns and session hosts left behind is cleaned up.
// Run from commander's preAction hook (program.ts), so `scv --version`, help and usage errors load
// none of it: the table, the config's schema and scv's home are a command's, not the entry point's.

import { join } from "node:path";
import { useConfiguredAgents } from "../adapters.js";
import { pidExists, sweepDeadTemporaries } from "../home/atomic.js";
import { loadConfig } from "../home/config.js";
import { hostHandles } from "../home/host-files.js";
import { scvHome } from "../home/paths.js";
import { removeIfPresent } from "../home/remove.js";
import { sendStateNotesTo } from "../home/state-file.js";
import { spareLogServer, turnLeftovers, turnsDir } from "../home/turn-files.js";
import type { CliIo } from "../io.js";

export async function beforeCommand(io: CliIo): Promise<void> {
  // A file of scv's that is not what scv writes there (a FIFO, a link) is skipped, saying so.
  sendStateNotesTo((line) => io.stderr.write(line));
  // The agents of the user's config join the table's on the first lookup of an agent.
  useConfiguredAgents(() => loadConfig(io.env).config.agentRows ?? []);
  // One rule for every command: a relative SCV_HOME is refused before anything reads or writes it
  // (readers that take a missing home for an empty one would otherwise go on in the wrong folder).
  if (io.env.SCV_HOME) scvHome(io.env);
  await reapLeftovers(io);
}

/** Turns whose scv was killed leave their records, and maybe a temporary file it was writing (one
 * holds the prompt); whatever the command, scv first stops what those turns left running and removes
 * temporary files whose writer is dead. One readdir when there is none; the registry is loaded only
 * when there is. */
async function reapLeftovers(io: CliIo): Promise<void> {
  const { handles, temporaries, spareLogs } = turnLeftovers(io.env);
  if (temporaries.length > 0) sweepDeadTemporaries(turnsDir(io.env), temporaries);
  if (spareLogs.length > 0) sweepDeadSpares(turnsDir(io.env), spareLogs);
  if (handles.length > 0) {
    const { reapOrphans } = await import("../turn/reap.js");
    await reapOrphans(io.env);
  }
  // Session hosts that died leave their ACP server (and records) behind.
  if (hostHandles(io.env).length > 0)
    (await import("../acp/session-host/end-host.js")).reapSessionHosts(io.env);
}

/** The logs of spare runners whose `scv mcp` is gone (its spare went with it). */
function sweepDeadSpares(dir: string, names: readonly string[]): void {
  for (const name of names) {
    const server = spareLogServer(name);
    if (server === undefined || pidExists(server)) continue;
    try {
      removeIfPresent(join(dir, name));
    } catch {
      // The next start tries again.
    }
  }
}
