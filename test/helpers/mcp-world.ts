// The world of the `scv mcp` server tests (test/mcp/server*.test.ts): a fresh world for each test,
// the SDK clients closed and the agents left running killed after it, and the turn files a world
// has once its background scv's settled.

import { afterEach } from "vitest";
import { turnFiles, useBackgroundLab } from "./background.js";
import { closeClients } from "./mcp-client.js";
import type { World } from "./scv.js";

/** A fresh world for each test of the calling file; after it, the MCP clients it connected are closed
 * and the pids pushed on the array this returns are SIGKILLed. */
export function useMcpLab(take: (world: World) => void): number[] {
  const leftovers = useBackgroundLab(take);
  afterEach(closeClients);
  return leftovers;
}

/** The turn files once the background scv that saved a result (read at once) has dropped its running
 * record, which it does right after (up to 5 s); without the log of the server's next spare runner. */
export async function settledTurnFiles(world: World): Promise<string[]> {
  const deadline = Date.now() + 5_000;
  while (turnFiles(world).some((name) => /^[^.]+\.json$/.test(name)) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 25));
  return turnFiles(world).filter((name) => !/^spare\.\d+\.\d+\.log$/.test(name));
}
