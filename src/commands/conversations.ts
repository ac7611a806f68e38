// Placeholder until its issue lands.

import type { CliIo } from "../cli/io.js";
import { ScvError } from "../errors.js";

export async function conversationsListCommand(_io: CliIo): Promise<number> {
  throw new ScvError("USAGE", "not available yet");
}

export async function conversationsShowCommand(_io: CliIo): Promise<number> {
  throw new ScvError("USAGE", "not available yet");
}

export async function conversationsRmCommand(_io: CliIo): Promise<number> {
  throw new ScvError("USAGE", "not available yet");
}
