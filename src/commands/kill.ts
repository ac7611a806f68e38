// `scv kill <job|handle>`: stops a running turn (jobs/kill.ts); a background turn's result is then
// read with `scv wait`.

import type { CliIo } from "../cli/io.js";
import { EXIT } from "../errors.js";
import { readRunning } from "../home/turn-records.js";
import { parseTurnRef } from "../jobs/handle.js";
import { killTurn } from "../jobs/kill.js";

export async function killCommand(io: CliIo, name: string): Promise<number> {
  const running = readRunning(parseTurnRef(name).handle, io.env);
  await killTurn(name, io.env);
  const job = running?.tag ?? name;
  io.stderr.write(
    running?.background ? `stopped ${job} — its result: scv wait ${job}\n` : `stopped ${job}\n`,
  );
  return EXIT.ok;
}
