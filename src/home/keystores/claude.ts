// Claude Code's two key stores. With an API key, scv keeps the key in its own 0600 file and adds an
// `apiKeyHelper` that prints it to the settings Claude Code reads from its config folder
// (CLAUDE_CONFIG_DIR points there): the lab saw `claude -p` and `claude auth status` use it, with no
// ANTHROPIC_* variable anywhere. The subscription sign-in is Claude Code's own `.credentials.json`.

import { join } from "node:path";
import type { KeyStore } from "../../adapters.js";
import { apiKeyProblem, trimKeyInput } from "../api-key.js";
import {
  day,
  exists,
  isFilled,
  isRecord,
  looseModeNote,
  parseJsonObject,
  readSmall,
  removeFile,
  restore,
  type StoreInspection,
  snapshot,
  writePrivate,
} from "./files.js";
import type { ApiKeyStoreKind, InspectOptions, RemoveResult, StoreKind } from "./types.js";

type ClaudeKeyStore = Extract<KeyStore, { kind: "claude-api-key" }>;
type ClaudeAccountStore = Extract<KeyStore, { kind: "claude-account" }>;

/** The helper command: Claude Code runs it in a shell and uses its stdout as the key. */
export function claudeKeyHelper(keyPath: string): string {
  return `cat '${keyPath.replaceAll("'", `'\\''`)}'`;
}

async function inspectClaudeKey(store: ClaudeKeyStore, home: string): Promise<StoreInspection> {
  const keyPath = join(home, store.key);
  const conflict = (await exists(join(home, store.credentials)))
    ? `; ${store.credentials} also holds a Claude subscription sign-in`
    : "";
  const key = await readSmall(keyPath, 4096);
  if (key.kind === "absent") return { state: "signed-out", detail: `no API key stored${conflict}` };
  if (key.kind === "unreadable") {
    return { state: "unknown", detail: `${store.key} cannot be read (${key.reason})` };
  }
  if (apiKeyProblem(trimKeyInput(key.text)) !== undefined) {
    return { state: "signed-out", detail: `${store.key} holds no well-formed key${conflict}` };
  }
  const settings = await readSmall(join(home, store.settings));
  const helper =
    settings.kind === "text" ? parseJsonObject(settings.text)?.apiKeyHelper : (undefined as unknown);
  if (helper === undefined) {
    return {
      state: "signed-out",
      detail: `API key file present, but ${store.settings} has no apiKeyHelper using it${conflict}`,
    };
  }
  if (helper !== claudeKeyHelper(keyPath)) {
    return {
      state: "unknown",
      detail: `${store.settings} runs an apiKeyHelper scv did not write${conflict}`,
    };
  }
  return {
    state: "signed-in",
    detail: `API key file present, used through apiKeyHelper${looseModeNote(key.mode)}${conflict}`,
  };
}

/** Stores `key` and points the settings' `apiKeyHelper` at it; both or neither. */
async function saveClaudeKey(store: ClaudeKeyStore, home: string, key: string): Promise<void> {
  const keyPath = join(home, store.key);
  const settingsPath = join(home, store.settings);
  const settings = await readSmall(settingsPath);
  if (settings.kind === "unreadable") {
    throw new Error(`${store.settings} cannot be read (${settings.reason})`);
  }
  const current = settings.kind === "text" ? parseJsonObject(settings.text) : {};
  if (current === undefined) {
    throw new Error(`${store.settings} is not a JSON object — fix or remove it, then sign in again`);
  }
  const before = [await snapshot(keyPath), await snapshot(settingsPath)];
  try {
    await writePrivate(home, keyPath, `${key}\n`);
    await writePrivate(
      home,
      settingsPath,
      `${JSON.stringify({ ...current, apiKeyHelper: claudeKeyHelper(keyPath) }, null, 2)}\n`,
    );
  } catch (error) {
    await restore(home, before);
    throw error;
  }
}

/** A Claude subscription sign-in in the same home, which the API-key agent must not bill. */
async function claudeKeyConflict(store: ClaudeKeyStore, home: string): Promise<string | undefined> {
  if (!(await exists(join(home, store.credentials)))) return undefined;
  return (
    `${join(home, store.credentials)} also holds a Claude subscription sign-in; Claude Code uses the ` +
    "API key helper before it, but remove that file to be sure this agent never bills the subscription"
  );
}

/** Removes the key file and the `apiKeyHelper` scv wrote; other settings, and a helper scv did not
 * write, stay. */
async function removeClaudeKey(store: ClaudeKeyStore, home: string): Promise<RemoveResult> {
  const keyPath = join(home, store.key);
  const removed: string[] = [];
  const kept: string[] = [];
  const settingsPath = join(home, store.settings);
  const settings = await readSmall(settingsPath);
  const current = settings.kind === "text" ? parseJsonObject(settings.text) : undefined;
  if (current !== undefined && "apiKeyHelper" in current) {
    if (current.apiKeyHelper === claudeKeyHelper(keyPath)) {
      const { apiKeyHelper: _removed, ...rest } = current;
      if (Object.keys(rest).length === 0) await removeFile(settingsPath);
      else await writePrivate(home, settingsPath, `${JSON.stringify(rest, null, 2)}\n`);
      removed.push(`apiKeyHelper in ${store.settings}`);
    } else {
      kept.push(`the apiKeyHelper in ${store.settings} (scv did not write it)`);
    }
  }
  if (await removeFile(keyPath)) removed.unshift(store.key);
  return { removed, kept };
}

async function inspectClaudeAccount(
  store: ClaudeAccountStore,
  home: string,
  options: InspectOptions,
): Promise<StoreInspection> {
  const file = await readSmall(join(home, store.credentials));
  if (file.kind === "unreadable") {
    return { state: "unknown", detail: `${store.credentials} cannot be read (${file.reason})` };
  }
  if (file.kind === "absent") {
    // On macOS Claude Code keeps the tokens in the keychain (an entry per config folder); the
    // config file's `oauthAccount` is what the sign-in leaves on disk.
    if (options.platform !== "darwin") return { state: "signed-out", detail: "no Claude sign-in stored" };
    const config = await readSmall(join(home, store.config), 16 * 1024 * 1024);
    const account = config.kind === "text" ? parseJsonObject(config.text)?.oauthAccount : undefined;
    return isRecord(account)
      ? { state: "signed-in", detail: "Claude subscription sign-in (tokens in the macOS keychain)" }
      : { state: "signed-out", detail: "no Claude sign-in recorded" };
  }
  const oauth = parseJsonObject(file.text)?.claudeAiOauth;
  if (!isRecord(oauth) || !(isFilled(oauth.accessToken) || isFilled(oauth.refreshToken))) {
    return { state: "signed-out", detail: `${store.credentials} holds no Claude sign-in` };
  }
  const plan = typeof oauth.subscriptionType === "string" && /^[a-z_]{1,20}$/.test(oauth.subscriptionType);
  const what = `Claude subscription sign-in${plan ? ` (${oauth.subscriptionType as string})` : ""}`;
  const mode = looseModeNote(file.mode);
  // The access token lives hours; with a refresh token Claude Code renews it itself.
  if (isFilled(oauth.refreshToken)) return { state: "signed-in", detail: `${what}, renewable${mode}` };
  const expires = typeof oauth.expiresAt === "number" ? new Date(oauth.expiresAt) : undefined;
  if (expires !== undefined && !Number.isNaN(expires.getTime())) {
    if (expires.getTime() <= options.now.getTime()) {
      return { state: "signed-out", detail: `${what} expired on ${day(expires)}` };
    }
    return { state: "signed-in", detail: `${what}, expires ${day(expires)}${mode}` };
  }
  return { state: "signed-in", detail: `${what}${mode}` };
}

export const claudeKeyStore: ApiKeyStoreKind<ClaudeKeyStore> = {
  files: (store) => [store.key, store.settings, store.credentials],
  keyFile: (store) => store.key,
  inspect: inspectClaudeKey,
  save: saveClaudeKey,
  conflict: claudeKeyConflict,
  remove: removeClaudeKey,
};

export const claudeAccountStore: StoreKind<ClaudeAccountStore> = {
  files: (store) => [store.credentials, store.config],
  inspect: inspectClaudeAccount,
  // `.claude.json` is the CLI's whole config (projects, settings), not a credential.
  remove: async (store, home) => ({
    removed: (await removeFile(join(home, store.credentials))) ? [store.credentials] : [],
    kept: [],
  }),
};
