// Placeholder until its issue lands.

import type { CliIo } from "../cli/io.js";
import { ScvError } from "../errors.js";

export async function gcCommand(_io: CliIo): Promise<number> {
  throw new ScvError("USAGE", "not available yet");
}
