// A key the CLI reads from a variable — in a dotenv file, or in the `env` block of its JSON settings —
// and a sign-in chosen in those settings that makes the CLI use it (a chosen sign-in that the
// variable alone does not override). An endpoint beside the key in the same file stays where it is.
// Without a choice the CLI picks the key up from its variable, so a missing one does not count
// against the sign-in.

import { join } from "node:path";
import type { KeyStore } from "../../adapters.js";
import {
  dotenvValue,
  dotenvWith,
  isFilled,
  jsonText,
  looseModeNote,
  parseJsonObject,
  readSettingsObject,
  readSmall,
  removeFile,
  restore,
  type StoreInspection,
  snapshot,
  valueAt,
  withValueAt,
  writePrivate,
} from "./files.js";
import type { ApiKeyStoreKind, RemoveResult } from "./keystore-types.js";
import { forgetLoginWrote, loginWrote, recordLoginWrote } from "./login-record.js";

type SelectedKeyStore = Extract<KeyStore, { kind: "selected-key" }>;

/** Where the key lives in the settings JSON when there is no dotenv file. */
function envPath(store: SelectedKeyStore): string[] {
  return ["env", store.variable];
}

/** The key's file, its text (or none), and the key in it. */
async function readKey(
  store: SelectedKeyStore,
  home: string,
): Promise<{ state: "unreadable"; reason: string } | { state: "read"; key: unknown; mode?: number }> {
  const file = store.dotenv ?? store.settings;
  const read = await readSmall(join(home, file));
  if (read.kind === "unreadable") return { state: "unreadable", reason: read.reason };
  if (read.kind === "absent") return { state: "read", key: undefined };
  if (store.dotenv !== undefined)
    return { state: "read", key: dotenvValue(read.text, store.variable), mode: read.mode };
  const settings = parseJsonObject(read.text);
  if (settings === undefined) return { state: "unreadable", reason: "not a JSON object" };
  return { state: "read", key: valueAt(settings, envPath(store)), mode: read.mode };
}

/** The sign-in the settings select, or undefined when they select none (or cannot be read). */
async function selection(store: SelectedKeyStore, home: string): Promise<unknown> {
  const settings = await readSmall(join(home, store.settings));
  return settings.kind === "text" ? valueAt(parseJsonObject(settings.text), store.selection.path) : undefined;
}

export const selectedKeyStore: ApiKeyStoreKind<SelectedKeyStore> = {
  files: (store) => (store.dotenv === undefined ? [store.settings] : [store.dotenv, store.settings]),

  keyFile: (store) => store.dotenv ?? store.settings,

  /** The key as its variable, where the row gives it to the CLI's runs that way; nothing when none is
   * stored (the CLI then reports it is signed out itself). */
  async environment(store, home) {
    if (store.environment !== true) return {};
    const key = await readKey(store, home);
    return key.state === "read" && isFilled(key.key) && typeof key.key === "string"
      ? { [store.variable]: key.key }
      : {};
  },

  async inspect(store, home): Promise<StoreInspection> {
    const file = store.dotenv ?? store.settings;
    const key = await readKey(store, home);
    if (key.state === "unreadable")
      return { state: "unknown", detail: `${file} cannot be read (${key.reason})` };
    if (!isFilled(key.key)) return { state: "signed-out", detail: `no ${store.variable} in ${file}` };
    const selected = await selection(store, home);
    if (selected !== undefined && selected !== store.selection.value) {
      return { state: "unknown", detail: `API key present, but ${store.settings} selects another sign-in` };
    }
    return { state: "signed-in", detail: `API key in ${file}${looseModeNote(key.mode ?? 0o600)}` };
  },

  async conflict(store, home) {
    const selected = await selection(store, home);
    if (selected === undefined || selected === store.selection.value) return undefined;
    return `${store.settings} selected another sign-in; it now selects the API key`;
  },

  /** The key where the CLI reads it and the selection of it; both or neither. A selection it makes is
   * recorded first, with what was there, for the sign-out to take back. */
  async save(store, home, key) {
    const settingsPath = join(home, store.settings);
    const settings = await readSettingsObject(settingsPath, store.settings);
    const chosen = valueAt(settings, store.selection.path);
    if (chosen !== store.selection.value)
      await recordLoginWrote(home, {
        file: store.settings,
        path: store.selection.path,
        value: store.selection.value,
        ...(chosen === undefined ? {} : { before: chosen }),
      });
    if (store.dotenv === undefined) {
      // One atomic write: the key and the selection land together or not at all.
      const withKey = withValueAt(settings, envPath(store), key);
      await writePrivate(
        home,
        settingsPath,
        jsonText(withValueAt(withKey, store.selection.path, store.selection.value)),
      );
      return;
    }
    const dotenvPath = join(home, store.dotenv);
    const dotenv = await readSmall(dotenvPath);
    if (dotenv.kind === "unreadable") throw new Error(`${store.dotenv} cannot be read (${dotenv.reason})`);
    const before = [await snapshot(dotenvPath), await snapshot(settingsPath)];
    try {
      await writePrivate(
        home,
        dotenvPath,
        dotenvWith(dotenv.kind === "text" ? dotenv.text : "", store.variable, key),
      );
      await writePrivate(
        home,
        settingsPath,
        jsonText(withValueAt(settings, store.selection.path, store.selection.value)),
      );
    } catch (error) {
      await restore(home, before);
      throw error;
    }
  },

  /** Removes the key (a dotenv file too when nothing else is left in it) and the selection login
   * made, putting back what it replaced; every other line and setting stays, and so does a selection
   * login did not make (the user's own, set before it or after). A home without the key is left as
   * it is. */
  async remove(store, home): Promise<RemoveResult> {
    const removed: string[] = [];
    const kept: string[] = [];
    const settingsPath = join(home, store.settings);
    const settingsFile = await readSmall(settingsPath);
    const before = settingsFile.kind === "text" ? parseJsonObject(settingsFile.text) : undefined;
    let settings = before;
    if (store.dotenv === undefined) {
      if (settings === undefined || valueAt(settings, envPath(store)) === undefined)
        return { removed, kept: [] };
      settings = withValueAt(settings, envPath(store), undefined);
      removed.push(`${store.variable} in ${store.settings}`);
    } else {
      const dotenvPath = join(home, store.dotenv);
      const dotenv = await readSmall(dotenvPath);
      if (dotenv.kind !== "text" || dotenvValue(dotenv.text, store.variable) === undefined) {
        return { removed, kept: [] };
      }
      const rest = dotenvWith(dotenv.text, store.variable, undefined);
      if (rest.trim() === "") await removeFile(dotenvPath);
      else await writePrivate(home, dotenvPath, rest);
      removed.push(`${store.variable} in ${store.dotenv}`);
    }
    const selected = valueAt(settings, store.selection.path);
    const wrote = await loginWrote(home, store.settings, store.selection.path);
    const setting = `${store.selection.path.join(".")} in ${store.settings}`;
    if (settings !== undefined && wrote !== undefined && selected === wrote.value) {
      settings = withValueAt(settings, store.selection.path, wrote.before);
      if (store.dotenv !== undefined)
        removed.push(
          wrote.before === undefined ? setting : `${setting} (back to ${JSON.stringify(wrote.before)})`,
        );
    } else if (selected === store.selection.value) {
      kept.push(`${setting}, which scv's sign-in did not set`);
    }
    if (settings !== before && settings !== undefined)
      await writePrivate(home, settingsPath, jsonText(settings));
    if (wrote !== undefined) await forgetLoginWrote(home, store.settings, store.selection.path);
    return { removed, kept };
  },
};
