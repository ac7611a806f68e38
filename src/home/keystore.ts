// The credential stores of the agent homes: one object per `KeyStore` kind (src/home/keystores/),
// each saying which files it owns, what they hold (signed in or not, and a one-line detail that
// never holds a secret), how an API key is saved the way the CLI itself reads it (0600, atomic), and
// how exactly the store's credentials are removed. The delegate runner calls `inspectStore` to
// refuse a signed-out agent before spawning it.

import { join } from "node:path";
import {
  type ApiKeyStore,
  type ImportCheck,
  type ImportFile,
  type KeyStore,
  type KeyStoreKind,
  unreachable,
} from "../adapters.js";
import { apiKeyOnlyRefusal, authJsonStore } from "./keystores/auth-json.js";
import { readSmall, type StoreInspection, writePrivate } from "./keystores/files.js";
import { jsonEntriesStore } from "./keystores/json-entries.js";
import { keyHelperStore } from "./keystores/key-helper.js";
import type {
  ApiKeyStoreKind,
  CliRunner,
  InspectOptions,
  RemoveResult,
  StoreKind,
} from "./keystores/keystore-types.js";
import { oauthFileStore } from "./keystores/oauth-file.js";
import { providerKeysStore } from "./keystores/provider-keys.js";
import { selectedKeyStore } from "./keystores/selected-key.js";
import { yamlEntryStore } from "./keystores/yaml-entry.js";

export type { StoreInspection } from "./keystores/files.js";
export type { CliRunner, InspectOptions, RemoveResult } from "./keystores/keystore-types.js";

export type SignInState = StoreInspection["state"];

type StoreOf<K extends KeyStoreKind> = Extract<KeyStore, { kind: K }>;

/** One implementation per kind; a store scv writes keys into must also know how to save one. */
type Stores = {
  readonly [K in KeyStoreKind]: StoreOf<K> extends ApiKeyStore
    ? ApiKeyStoreKind<StoreOf<K>>
    : StoreKind<StoreOf<K>>;
};

const STORES = {
  "key-helper": keyHelperStore,
  "auth-json": authJsonStore,
  "selected-key": selectedKeyStore,
  "yaml-entry": yamlEntryStore,
  "oauth-file": oauthFileStore,
  "json-entries": jsonEntriesStore,
  "provider-keys": providerKeysStore,
} as const satisfies Stores;

/** The implementation of `store`'s kind. (The map is checked kind by kind above; TypeScript cannot
 * carry that check through an index by a union, hence the cast.) */
function kindOf<S extends KeyStore>(store: S): StoreKind<S> {
  return STORES[store.kind] as unknown as StoreKind<S>;
}

function apiKindOf<S extends ApiKeyStore>(store: S): ApiKeyStoreKind<S> {
  return STORES[store.kind] as unknown as ApiKeyStoreKind<S>;
}

/** Whether the key store in `home` (an agent home, absolute) holds a sign-in. Reads only the store's
 * own files, never more than their first megabyte, and never puts their contents in `detail`
 * ("API key file present", "… sign-in (max), renewable"). Never throws: what it
 * cannot read is "unknown". */
export async function inspectStore(
  store: KeyStore,
  home: string,
  options: Partial<InspectOptions> = {},
): Promise<StoreInspection> {
  const resolved: InspectOptions = {
    now: options.now ?? new Date(),
    platform: options.platform ?? process.platform,
  };
  try {
    return await kindOf(store).inspect(store, home, resolved);
  } catch (error) {
    const reason = error instanceof Error ? error.message.replaceAll(home, "<home>") : "unreadable";
    return { state: "unknown", detail: `key store cannot be read (${reason})` };
  }
}

/** Every file a store reads or writes, relative to the agent home. */
export function storeFiles(store: KeyStore): readonly string[] {
  return kindOf(store).files(store);
}

/** The file that holds the key itself once saved, relative to the agent home. */
export function keyFile(store: ApiKeyStore): string {
  return apiKindOf(store).keyFile(store);
}

/** Writes `key` where the CLI reads it and configures the CLI to use it. On failure nothing of it is
 * left behind (each file is written atomically, and a half-done pair is rolled back). */
export function saveApiKey(store: ApiKeyStore, home: string, key: string, run: CliRunner): Promise<void> {
  return apiKindOf(store).save(store, home, key, run);
}

/** Another sign-in in the same home that storing a key overrides or competes with, as one line. */
export function apiKeyConflict(store: ApiKeyStore, home: string): Promise<string | undefined> {
  return apiKindOf(store).conflict(store, home);
}

/** Variables that give the key stored in `home` to a run of the CLI, where its store says so (a CLI
 * that does not always read the file); none otherwise. */
export async function keyEnvironment(store: ApiKeyStore, home: string): Promise<Record<string, string>> {
  const kind = apiKindOf(store);
  return kind.environment === undefined ? {} : kind.environment(store, home);
}

/** Removes exactly the store's credentials (and the helper config scv wrote), nothing else. */
export function removeStore(store: KeyStore, home: string): Promise<RemoveResult> {
  return kindOf(store).remove(store, home);
}

/** Why `import` copied nothing: the file (relative to the user's home) and what was wrong with it. */
export type ImportProblem =
  | { readonly kind: "absent"; readonly from: string }
  | { readonly kind: "unreadable"; readonly from: string; readonly reason: string }
  | { readonly kind: "refused"; readonly from: string; readonly reason: string };

/** Copies the user's own files into the agent home (0600, atomically), each only when its check
 * accepts it; every file is read and checked before any is written, so a refusal copies nothing.
 * Contents are never returned. */
export async function importFiles(
  files: readonly ImportFile[],
  userHome: string,
  /** The agent home, created (0700) when called: only once everything passed its check. */
  home: () => string,
): Promise<ImportProblem | undefined> {
  const accepted: { to: string; text: string }[] = [];
  for (const file of files) {
    const source = await readSmall(join(userHome, file.from));
    if (source.kind === "absent") return { kind: "absent", from: file.from };
    if (source.kind === "unreadable") return { kind: "unreadable", from: file.from, reason: source.reason };
    const refusal = importRefusal(file.accept, source.text);
    if (refusal !== undefined) return { kind: "refused", from: file.from, reason: refusal };
    accepted.push({ to: file.to, text: source.text });
  }
  const target = home();
  for (const file of accepted) await writePrivate(target, join(target, file.to), file.text);
  return undefined;
}

/** Why a file the user has may not be imported, or undefined when it may. */
export function importRefusal(check: ImportCheck, text: string): string | undefined {
  switch (check.kind) {
    case "api-key-only":
      return apiKeyOnlyRefusal(check.store, text);
    default:
      return unreachable(check.kind);
  }
}
