// The credential stores of the agent homes, one implementation per `KeyStore` kind (src/home/keystores/):
// inspect (signed in or not, and a one-line detail that never holds a secret), save an API key the
// way the CLI itself reads it (0600, atomic), and remove exactly the store's files. The delegate
// runner calls `inspectStore` to refuse a signed-out agent before spawning it.

import { join } from "node:path";
import {
  type ApiKeyStore,
  type ImportCheck,
  type ImportFile,
  type KeyStore,
  unreachable,
} from "../adapters.js";
import {
  claudeKeyConflict,
  inspectClaudeAccount,
  inspectClaudeKey,
  removeClaudeKey,
  saveClaudeKey,
} from "./keystores/claude.js";
import {
  codexConflict,
  codexImportRefusal,
  inspectCodex,
  removeCodex,
  saveCodex,
} from "./keystores/codex.js";
import { inspectDsh, removeDsh, saveDsh } from "./keystores/dsh.js";
import { readSmall, removeFile, type StoreInspection, writePrivate } from "./keystores/files.js";
import { geminiConflict, inspectGemini, removeGemini, saveGemini } from "./keystores/gemini.js";
import { inspectGrok } from "./keystores/grok.js";
import { inspectPi, piFiles, removePi } from "./keystores/pi.js";
import { inspectQwen, qwenConflict, removeQwen, saveQwen } from "./keystores/qwen.js";
import type { CliRunner, InspectOptions, RemoveResult } from "./keystores/types.js";

export type { StoreInspection } from "./keystores/files.js";
export type { CliRunner, InspectOptions, RemoveResult } from "./keystores/types.js";

export type SignInState = StoreInspection["state"];

/** Whether the key store in `home` (an agent home, absolute) holds a sign-in. Reads only the store's
 * own files, never more than their first megabyte, and never puts their contents in `detail`
 * ("API key file present", "Claude subscription sign-in (max), renewable"). Never throws: what it
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
    return await inspectKind(store, home, resolved);
  } catch (error) {
    const reason = error instanceof Error ? error.message.replaceAll(home, "<home>") : "unreadable";
    return { state: "unknown", detail: `key store cannot be read (${reason})` };
  }
}

function inspectKind(store: KeyStore, home: string, options: InspectOptions): Promise<StoreInspection> {
  switch (store.kind) {
    case "claude-api-key":
      return inspectClaudeKey(store, home);
    case "claude-account":
      return inspectClaudeAccount(store, home, options);
    case "codex-auth":
      return inspectCodex(store, home);
    case "gemini-env":
      return inspectGemini(store, home);
    case "qwen-settings":
      return inspectQwen(store, home);
    case "grok":
      return inspectGrok(store, home);
    case "dsh-refs":
      return inspectDsh(store, home);
    case "pi":
      return inspectPi(store, home);
    default:
      return unreachable(store);
  }
}

/** Every file a store reads or writes, relative to the agent home. */
export function storeFiles(store: KeyStore): string[] {
  switch (store.kind) {
    case "claude-api-key":
      return [store.key, store.settings, store.credentials];
    case "claude-account":
      return [store.credentials, store.config];
    case "codex-auth":
      return [store.auth];
    case "gemini-env":
      return [store.env, store.settings];
    case "qwen-settings":
      return [store.settings];
    case "grok":
      return [store.auth, store.config];
    case "dsh-refs":
      return [store.path];
    case "pi":
      return piFiles(store);
    default:
      return unreachable(store);
  }
}

/** The file that holds the key itself once saved, relative to the agent home. */
export function keyFile(store: ApiKeyStore): string {
  switch (store.kind) {
    case "claude-api-key":
      return store.key;
    case "codex-auth":
      return store.auth;
    case "gemini-env":
      return store.env;
    case "qwen-settings":
      return store.settings;
    case "dsh-refs":
      return store.path;
    default:
      return unreachable(store);
  }
}

/** Writes `key` where the CLI reads it and configures the CLI to use it. On failure nothing of it is
 * left behind (each file is written atomically, and a half-done pair is rolled back). */
export async function saveApiKey(
  store: ApiKeyStore,
  home: string,
  key: string,
  run: CliRunner,
): Promise<void> {
  switch (store.kind) {
    case "claude-api-key":
      return saveClaudeKey(store, home, key);
    case "codex-auth":
      return saveCodex(store, home, key, run);
    case "gemini-env":
      return saveGemini(store, home, key);
    case "qwen-settings":
      return saveQwen(store, home, key);
    case "dsh-refs":
      return saveDsh(store, home, key);
    default:
      return unreachable(store);
  }
}

/** Another sign-in in the same home that storing a key overrides or competes with, as one line. */
export async function apiKeyConflict(store: ApiKeyStore, home: string): Promise<string | undefined> {
  switch (store.kind) {
    case "claude-api-key":
      return claudeKeyConflict(store, home);
    case "codex-auth":
      return codexConflict(store, home);
    case "gemini-env":
      return geminiConflict(store, home);
    case "qwen-settings":
      return qwenConflict(store, home);
    case "dsh-refs":
      return undefined;
    default:
      return unreachable(store);
  }
}

/** Removes exactly the store's credentials (and the helper config scv wrote), nothing else. */
export async function removeStore(store: KeyStore, home: string): Promise<RemoveResult> {
  switch (store.kind) {
    case "claude-api-key":
      return removeClaudeKey(store, home);
    case "claude-account":
      // `.claude.json` is the CLI's whole config (projects, settings), not a credential.
      return {
        removed: (await removeFile(join(home, store.credentials))) ? [store.credentials] : [],
        kept: [],
      };
    case "codex-auth":
      return removeCodex(store, home);
    case "gemini-env":
      return removeGemini(store, home);
    case "qwen-settings":
      return removeQwen(store, home);
    case "grok": {
      const removed = (await removeFile(join(home, store.auth))) ? [store.auth] : [];
      // A key in a model profile of config.toml is in the CLI's own shape; scv leaves the file alone.
      const left = await inspectGrok(store, home);
      return { removed, kept: left.state === "signed-in" ? [`the API key in ${store.config}`] : [] };
    }
    case "dsh-refs":
      return removeDsh(store, home);
    case "pi":
      return removePi(store, home);
    default:
      return unreachable(store);
  }
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
  switch (check) {
    case "codex-api-key":
      return codexImportRefusal(text);
    default:
      return unreachable(check);
  }
}
