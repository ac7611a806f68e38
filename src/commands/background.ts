// Placeholder until its issue lands.

import type { CliIo } from "../cli/io.js";
import { ScvError } from "../errors.js";

export async function waitCommand(_io: CliIo): Promise<number> {
  throw new ScvError("USAGE", "not available yet");
}

export async function psCommand(_io: CliIo): Promise<number> {
  throw new ScvError("USAGE", "not available yet");
}

export async function killCommand(_io: CliIo): Promise<number> {
  throw new ScvError("USAGE", "not available yet");
}
