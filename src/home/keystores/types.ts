// What every key store implementation takes and gives back.

import type { BoundedResult } from "../../os/bounded.js";

export interface InspectOptions {
  /** For expiry dates. */
  readonly now: Date;
  /** Where a CLI keeps tokens in the OS keychain instead of a file (macOS). */
  readonly platform: NodeJS.Platform;
}

/** What a sign-out removed, and what it found but left because scv did not write it. */
export interface RemoveResult {
  /** Relative to the agent home. */
  readonly removed: readonly string[];
  readonly kept: readonly string[];
}

/** Runs the agent's own CLI in its home with the isolated environment, `input` on stdin: for the
 * stores the CLI writes itself (`codex login --with-api-key`). */
export type CliRunner = (args: readonly string[], input: string) => Promise<BoundedResult>;
