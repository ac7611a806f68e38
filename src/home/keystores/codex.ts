// Codex's `auth.json` in CODEX_HOME (the agent home). Codex writes it itself: scv stores an API key by
// running `codex login --with-api-key` with the key on stdin (the lab: `{"auth_mode":"apikey",
// "OPENAI_API_KEY":…}`, 0600), and reads it only to tell an API key from a ChatGPT sign-in.

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
} from "./files.js";
import type { ApiKeyStoreKind, CliRunner, RemoveResult } from "./types.js";

type CodexStore = Extract<KeyStore, { kind: "codex-auth" }>;

type CodexAuth = "api-key" | "chatgpt" | "none";

/** What an `auth.json` holds, read from its shape only. */
export function codexAuthKind(auth: Record<string, unknown>): CodexAuth {
  if (isFilled(auth.OPENAI_API_KEY)) return "api-key";
  const tokens = auth.tokens;
  if (isRecord(tokens) && (isFilled(tokens.refresh_token) || isFilled(tokens.access_token))) return "chatgpt";
  return "none";
}

/** Why `text` may not be imported into a scv home, or undefined when it may: only an API-key
 * `auth.json`, never one carrying ChatGPT tokens (their refresh token rotates: two homes sharing it
 * sign each other out). */
export function codexImportRefusal(text: string): string | undefined {
  const auth = parseJsonObject(text);
  if (auth === undefined) return "it is not a JSON object";
  const tokens = auth.tokens;
  if (isRecord(tokens) && Object.values(tokens).some(isFilled)) {
    return "it holds a ChatGPT sign-in, whose refresh token may live in one home only";
  }
  if (codexAuthKind(auth) !== "api-key") return "it holds no API key";
  return undefined;
}

async function inspectCodex(store: CodexStore, home: string): Promise<StoreInspection> {
  const file = await readSmall(join(home, store.auth));
  if (file.kind === "unreadable") {
    return { state: "unknown", detail: `${store.auth} cannot be read (${file.reason})` };
  }
  if (file.kind === "absent") {
    if (await usesKeyring(home)) {
      return { state: "unknown", detail: "Codex keeps its sign-in in the OS keyring (config.toml)" };
    }
    return { state: "signed-out", detail: `no ${store.auth}` };
  }
  const auth = parseJsonObject(file.text);
  if (auth === undefined) return { state: "unknown", detail: `${store.auth} is not a JSON object` };
  const mode = looseModeNote(file.mode);
  switch (codexAuthKind(auth)) {
    case "api-key":
      return { state: "signed-in", detail: `API key in ${store.auth}${mode}` };
    case "chatgpt":
      return { state: "signed-in", detail: `ChatGPT sign-in in ${store.auth}${mode}` };
    case "none":
      return { state: "signed-out", detail: `${store.auth} holds no sign-in` };
  }
}

/** `cli_auth_credentials_store = "keyring" | "auto"` in the home's config.toml moves the sign-in out
 * of `auth.json`. */
async function usesKeyring(home: string): Promise<boolean> {
  const config = await readSmall(join(home, "config.toml"));
  if (config.kind !== "text") return false;
  try {
    const value = parseToml(config.text).cli_auth_credentials_store;
    return value === "keyring" || value === "auto";
  } catch {
    return false;
  }
}

/** A ChatGPT sign-in that storing an API key replaces. */
async function codexConflict(store: CodexStore, home: string): Promise<string | undefined> {
  const file = await readSmall(join(home, store.auth));
  const auth = file.kind === "text" ? parseJsonObject(file.text) : undefined;
  if (auth === undefined || codexAuthKind(auth) !== "chatgpt") return undefined;
  return "this home held a ChatGPT sign-in; the API key replaces it";
}

/** Runs the CLI's own `login --with-api-key`; on any failure the earlier `auth.json` (or none) is put
 * back, so a failed login leaves no partial credential file. */
async function saveCodex(store: CodexStore, home: string, key: string, run: CliRunner): Promise<void> {
  const authPath = join(home, store.auth);
  const before = await snapshot(authPath);
  const result = await run(store.loginArgs, `${key}\n`);
  // Its output is not shown: a CLI may echo part of what it was given.
  let failure: string | undefined;
  if (result.spawnError !== undefined) failure = `could not be started (${result.spawnError})`;
  else if (result.timedOut) failure = "did not finish within its time limit";
  else if (result.code !== 0) failure = `failed (exit ${result.code ?? "by a signal"})`;
  else if ((await inspectCodex(store, home)).state !== "signed-in") failure = `wrote no key to ${store.auth}`;
  if (failure !== undefined) {
    await restore(home, [before]);
    throw new Error(`its \`${store.loginArgs.join(" ")}\` ${failure}`);
  }
}

async function removeCodex(store: CodexStore, home: string): Promise<RemoveResult> {
  return { removed: (await removeFile(join(home, store.auth))) ? [store.auth] : [], kept: [] };
}

export const codexStore: ApiKeyStoreKind<CodexStore> = {
  files: (store) => [store.auth],
  keyFile: (store) => store.auth,
  inspect: inspectCodex,
  save: saveCodex,
  conflict: codexConflict,
  remove: removeCodex,
};
