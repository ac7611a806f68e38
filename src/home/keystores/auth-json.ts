// The JSON file a CLI's own sign-in writes (an API key, or an account's tokens). The CLI writes it
// itself: scv stores an API key by running the row's `loginArgs` with the key on stdin, and reads the
// file only to tell an API key from an account's sign-in. A setting of the CLI's TOML config may move
// the sign-in into the OS keyring.

import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import type { KeyStore } from "../../adapters.js";
import {
  isFilled,
  isRecord,
  looseModeNote,
  parseJsonObject,
  readSmall,
  removeFile,
  restore,
  type StoreInspection,
  snapshot,
  valueAt,
} from "./files.js";
import type { ApiKeyStoreKind, CliRunner, RemoveResult } from "./keystore-types.js";

type AuthJsonStore = Extract<KeyStore, { kind: "auth-json" }>;

type AuthKind = "api-key" | "account" | "none";

/** What the file holds, read from its shape only. */
function authKind(store: AuthJsonStore, auth: Record<string, unknown>): AuthKind {
  if (isFilled(valueAt(auth, store.key))) return "api-key";
  const tokens = valueAt(auth, store.tokens.path);
  if (isRecord(tokens) && store.tokens.fields.some((field) => isFilled(tokens[field]))) return "account";
  return "none";
}

/** Why `text` may not be imported into a scv home, or undefined when it may: only a file holding an
 * API key, never one carrying an account's tokens (their refresh token rotates: two homes sharing it
 * sign each other out). */
export function apiKeyOnlyRefusal(store: AuthJsonStore, text: string): string | undefined {
  const auth = parseJsonObject(text);
  if (auth === undefined) return "it is not a JSON object";
  const tokens = valueAt(auth, store.tokens.path);
  if (isRecord(tokens) && Object.values(tokens).some(isFilled)) {
    return `it holds a ${store.tokens.is}, whose refresh token may live in one home only`;
  }
  if (authKind(store, auth) !== "api-key") return "it holds no API key";
  return undefined;
}

async function inspectAuthJson(store: AuthJsonStore, home: string): Promise<StoreInspection> {
  const file = await readSmall(join(home, store.file));
  if (file.kind === "unreadable") {
    return { state: "unknown", detail: `${store.file} cannot be read (${file.reason})` };
  }
  if (file.kind === "absent") {
    if (store.keyring !== undefined && (await usesKeyring(store.keyring, home))) {
      return {
        state: "unknown",
        detail: `the CLI keeps its sign-in in the OS keyring (${store.keyring.file})`,
      };
    }
    return { state: "signed-out", detail: `no ${store.file}` };
  }
  const auth = parseJsonObject(file.text);
  if (auth === undefined) return { state: "unknown", detail: `${store.file} is not a JSON object` };
  const mode = looseModeNote(file.mode);
  switch (authKind(store, auth)) {
    case "api-key":
      return { state: "signed-in", detail: `API key in ${store.file}${mode}` };
    case "account":
      return { state: "signed-in", detail: `${store.tokens.is} in ${store.file}${mode}` };
    case "none":
      return { state: "signed-out", detail: `${store.file} holds no sign-in` };
  }
}

/** Whether the CLI's TOML config sets the keyring's key to one of its values. */
async function usesKeyring(keyring: NonNullable<AuthJsonStore["keyring"]>, home: string): Promise<boolean> {
  const config = await readSmall(join(home, keyring.file));
  if (config.kind !== "text") return false;
  try {
    const value = parseToml(config.text)[keyring.key];
    return typeof value === "string" && keyring.values.includes(value);
  } catch {
    return false;
  }
}

/** An account's sign-in that storing an API key replaces. */
async function authJsonConflict(store: AuthJsonStore, home: string): Promise<string | undefined> {
  const file = await readSmall(join(home, store.file));
  const auth = file.kind === "text" ? parseJsonObject(file.text) : undefined;
  if (auth === undefined || authKind(store, auth) !== "account") return undefined;
  return `this home held a ${store.tokens.is}; the API key replaces it`;
}

/** Runs the CLI's own `loginArgs`; on any failure the earlier file (or none) is put back, so a failed
 * login leaves no partial credential file. */
async function saveAuthJson(store: AuthJsonStore, home: string, key: string, run: CliRunner): Promise<void> {
  const authPath = join(home, store.file);
  const before = await snapshot(authPath);
  const result = await run(store.loginArgs, `${key}\n`);
  // Its output is not shown: a CLI may echo part of what it was given.
  let failure: string | undefined;
  if (result.spawnError !== undefined) failure = `could not be started (${result.spawnError})`;
  else if (result.timedOut) failure = "did not finish within its time limit";
  else if (result.code !== 0) failure = `failed (exit ${result.code ?? "by a signal"})`;
  else if ((await inspectAuthJson(store, home)).state !== "signed-in")
    failure = `wrote no key to ${store.file}`;
  if (failure !== undefined) {
    await restore(home, [before]);
    throw new Error(`its \`${store.loginArgs.join(" ")}\` ${failure}`);
  }
}

async function removeAuthJson(store: AuthJsonStore, home: string): Promise<RemoveResult> {
  return { removed: (await removeFile(join(home, store.file))) ? [store.file] : [], kept: [] };
}

export const authJsonStore: ApiKeyStoreKind<AuthJsonStore> = {
  files: (store) => [store.file],
  keyFile: (store) => store.file,
  inspect: inspectAuthJson,
  save: saveAuthJson,
  conflict: authJsonConflict,
  remove: removeAuthJson,
};
