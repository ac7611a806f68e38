// What every key store implementation is: one object per `KeyStore` kind, each taking the row's store
// of its own kind. src/home/keystore.ts holds them in one map checked against the kinds.

import type { ApiKeyStore, KeyStore } from "../../adapters.js";
import type { StoreInspection } from "./files.js";

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

/** How the agent's own CLI ended when a store ran it. */
interface CliRunResult {
  /** Exit code, or null when it ended by a signal or was ended at its time limit. */
  readonly code: number | null;
  readonly timedOut: boolean;
  /** Set when it could not be started at all. */
  readonly spawnError?: string;
}

/** Runs the agent's own CLI in its home with the isolated environment, `input` on stdin: for the
 * stores the CLI writes itself (its `login --with-api-key`). */
export type CliRunner = (args: readonly string[], input: string) => Promise<CliRunResult>;

/** A key store: the files it owns, what they say, and how its credentials are removed. */
export interface StoreKind<S extends KeyStore> {
  /** Every file the store reads or writes, relative to the agent home. */
  files(store: S): readonly string[];
  /** Signed in or not, and a one-line detail that never holds a secret. May throw: the caller turns
   * that into "unknown". */
  inspect(store: S, home: string, options: InspectOptions): Promise<StoreInspection>;
  /** Removes exactly the store's credentials (and the helper config scv wrote), nothing else. */
  remove(store: S, home: string): Promise<RemoveResult>;
}

/** A store scv can also write an API key into. */
export interface ApiKeyStoreKind<S extends ApiKeyStore> extends StoreKind<S> {
  /** The file that holds the key itself once saved, relative to the agent home. */
  keyFile(store: S): string;
  /** Writes `key` where the CLI reads it and configures the CLI to use it; on failure nothing of it is
   * left behind. */
  save(store: S, home: string, key: string, run: CliRunner): Promise<void>;
  /** Another sign-in in the same home that storing a key overrides or competes with, as one line. */
  conflict(store: S, home: string): Promise<string | undefined>;
  /** Variables that give the stored key to each run of the CLI, where the store says so. */
  environment?(store: S, home: string): Promise<Record<string, string>>;
}
