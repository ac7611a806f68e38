// `scv kill <job|handle>`: stops a running turn (jobs/kill-job.ts); a background turn's result is then
// read with `scv wait`. A conversation with no running turn but a session host (src/acp/session-host/) has its
// host ended, and the ACP server with it.

import { endSessionHost, sessionHostAlive } from "../acp/session-host/end-host.js";
import { EXIT } from "../errors.js";
import { readHostRecord } from "../home/host-records.js";
import { readRunning } from "../home/turn-records.js";
import type { CliIo } from "../io.js";
import { parseTurnRef } from "../jobs/handle.js";
import { killTurn } from "../jobs/kill-job.js";

export async function killCommand(io: CliIo, name: string): Promise<number> {
  const ref = parseTurnRef(name);
  const running = readRunning(ref.handle, io.env);
  if (running === undefined && ref.kind === "handle") {
    const host = readHostRecord(ref.handle, io.env);
    if (host !== undefined && sessionHostAlive(host)) {
      await endSessionHost(host, io.env);
      io.stderr.write(`ended the session host of ${ref.handle}\n`);
      return EXIT.ok;
    }
  }
  await killTurn(name, io.env);
  const job = running?.tag ?? name;
  io.stderr.write(
    running?.background ? `stopped ${job} — its result: scv wait ${job}\n` : `stopped ${job}\n`,
  );
  return EXIT.ok;
}
