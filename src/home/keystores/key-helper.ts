// A key scv keeps in a file of its own (0600), and a helper command in the CLI's JSON settings that
// prints it: the CLI runs the helper and uses its stdout as the key. The row names the file, the
// settings and their member, and a sign-in beside it that the key competes with.

import { join } from "node:path";
import type { KeyStore } from "../../adapters.js";
import { apiKeyProblem, trimKeyInput } from "../api-key.js";
import {
  exists,
  looseModeNote,
  parseJsonObject,
  readSmall,
  removeFile,
  restore,
  type StoreInspection,
  snapshot,
  writePrivate,
} from "./files.js";
import type { ApiKeyStoreKind, RemoveResult } from "./keystore-types.js";

type KeyHelperStore = Extract<KeyStore, { kind: "key-helper" }>;

/** The helper command: the CLI runs it in a shell and uses its stdout as the key. */
export function keyHelperCommand(keyPath: string): string {
  return `cat '${keyPath.replaceAll("'", `'\\''`)}'`;
}

/** "; <file> also holds <the other sign-in>" when that file is there, else "". */
async function otherNote(store: KeyHelperStore, home: string): Promise<string> {
  const other = store.other;
  if (other === undefined || !(await exists(join(home, other.file)))) return "";
  return `; ${other.file} also holds ${other.holds}`;
}

async function inspectKeyHelper(store: KeyHelperStore, home: string): Promise<StoreInspection> {
  const keyPath = join(home, store.key);
  const conflict = await otherNote(store, home);
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
    settings.kind === "text" ? parseJsonObject(settings.text)?.[store.setting] : (undefined as unknown);
  if (helper === undefined) {
    return {
      state: "signed-out",
      detail: `API key file present, but ${store.settings} has no ${store.setting} using it${conflict}`,
    };
  }
  if (helper !== keyHelperCommand(keyPath)) {
    return {
      state: "unknown",
      detail: `${store.settings} runs an ${store.setting} scv did not write${conflict}`,
    };
  }
  return {
    state: "signed-in",
    detail: `API key file present, used through ${store.setting}${looseModeNote(key.mode)}${conflict}`,
  };
}

/** Stores `key` and points the settings' helper at it; both or neither. */
async function saveKeyHelper(store: KeyHelperStore, home: string, key: string): Promise<void> {
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
      `${JSON.stringify({ ...current, [store.setting]: keyHelperCommand(keyPath) }, null, 2)}\n`,
    );
  } catch (error) {
    await restore(home, before);
    throw error;
  }
}

/** The other sign-in in the same home, which the key's agent must never run on. */
async function keyHelperConflict(store: KeyHelperStore, home: string): Promise<string | undefined> {
  const other = store.other;
  if (other === undefined || !(await exists(join(home, other.file)))) return undefined;
  return (
    `${join(home, other.file)} also holds ${other.holds}; the CLI uses the key before it, but ` +
    "remove that file to be sure this agent never runs on it"
  );
}

/** Removes the key file and the helper scv wrote; other settings, and a helper scv did not write,
 * stay. */
async function removeKeyHelper(store: KeyHelperStore, home: string): Promise<RemoveResult> {
  const keyPath = join(home, store.key);
  const removed: string[] = [];
  const kept: string[] = [];
  const settingsPath = join(home, store.settings);
  const settings = await readSmall(settingsPath);
  const current = settings.kind === "text" ? parseJsonObject(settings.text) : undefined;
  if (current !== undefined && store.setting in current) {
    if (current[store.setting] === keyHelperCommand(keyPath)) {
      const { [store.setting]: _removed, ...rest } = current;
      if (Object.keys(rest).length === 0) await removeFile(settingsPath);
      else await writePrivate(home, settingsPath, `${JSON.stringify(rest, null, 2)}\n`);
      removed.push(`${store.setting} in ${store.settings}`);
    } else {
      kept.push(`the ${store.setting} in ${store.settings} (scv did not write it)`);
    }
  }
  if (await removeFile(keyPath)) removed.unshift(store.key);
  return { removed, kept };
}

export const keyHelperStore: ApiKeyStoreKind<KeyHelperStore> = {
  files: (store) => [store.key, store.settings, ...(store.other === undefined ? [] : [store.other.file])],
  keyFile: (store) => store.key,
  inspect: inspectKeyHelper,
  save: saveKeyHelper,
  conflict: keyHelperConflict,
  remove: removeKeyHelper,
};
