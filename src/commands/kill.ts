// `scv kill <handle>`: stops a running turn (jobs/kill.ts); a background turn's result is then
// read with `scv wait`.

import type { CliIo } from "../cli/io.js";
import { EXIT } from "../errors.js";
import { readRunning } from "../home/turn-records.js";
import { checkHandle } from "../jobs/handle.js";
import { killTurn } from "../jobs/kill.js";

export async function killCommand(io: CliIo, handle: string): Promise<number> {
  checkHandle(handle);
  const background = readRunning(handle, io.env)?.background ?? false;
  await killTurn(handle, io.env);
  io.stderr.write(
    background ? `stopped ${handle} — its result: scv wait ${handle}\n` : `stopped ${handle}\n`,
  );
  return EXIT.ok;
}
