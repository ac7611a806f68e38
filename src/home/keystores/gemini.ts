// Gemini CLI with an API key: `GEMINI_API_KEY` in `~/.gemini/.env` and `security.auth.selectedType`
// "gemini-api-key" in `~/.gemini/settings.json` — the lab's working recipe (the CLI reads that .env
// only in a trusted folder; scv's headless args pass `--skip-trust`).

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
import type { RemoveResult } from "./types.js";

type GeminiStore = Extract<KeyStore, { kind: "gemini-env" }>;

const SELECTED = ["security", "auth", "selectedType"] as const;
const API_KEY_TYPE = "gemini-api-key";

export async function inspectGemini(store: GeminiStore, home: string): Promise<StoreInspection> {
  const env = await readSmall(join(home, store.env));
  if (env.kind === "unreadable")
    return { state: "unknown", detail: `${store.env} cannot be read (${env.reason})` };
  if (env.kind === "absent" || !isFilled(dotenvValue(env.text, store.variable))) {
    return { state: "signed-out", detail: `no ${store.variable} in ${store.env}` };
  }
  const settings = await readSmall(join(home, store.settings));
  const selected = settings.kind === "text" ? valueAt(parseJsonObject(settings.text), SELECTED) : undefined;
  if (selected !== undefined && selected !== API_KEY_TYPE) {
    return { state: "unknown", detail: `API key present, but ${store.settings} selects another sign-in` };
  }
  return { state: "signed-in", detail: `API key in ${store.env}${looseModeNote(env.mode)}` };
}

export async function geminiConflict(store: GeminiStore, home: string): Promise<string | undefined> {
  const settings = await readSmall(join(home, store.settings));
  const selected = settings.kind === "text" ? valueAt(parseJsonObject(settings.text), SELECTED) : undefined;
  if (selected === undefined || selected === API_KEY_TYPE) return undefined;
  return `${store.settings} selected another sign-in; it now selects the API key`;
}

/** Sets the variable in the .env (its other lines, such as an endpoint, stay) and selects API-key
 * sign-in in the settings; both or neither. */
export async function saveGemini(store: GeminiStore, home: string, key: string): Promise<void> {
  const envPath = join(home, store.env);
  const settingsPath = join(home, store.settings);
  const settings = await readSettingsObject(settingsPath, store.settings);
  const env = await readSmall(envPath);
  if (env.kind === "unreadable") throw new Error(`${store.env} cannot be read (${env.reason})`);
  const before = [await snapshot(envPath), await snapshot(settingsPath)];
  try {
    await writePrivate(home, envPath, dotenvWith(env.kind === "text" ? env.text : "", store.variable, key));
    await writePrivate(home, settingsPath, jsonText(withValueAt(settings, SELECTED, API_KEY_TYPE)));
  } catch (error) {
    await restore(home, before);
    throw error;
  }
}

/** Removes the variable from the .env (the file too when nothing else is left) and the selection of
 * API-key sign-in scv made; every other setting stays. */
export async function removeGemini(store: GeminiStore, home: string): Promise<RemoveResult> {
  const removed: string[] = [];
  const envPath = join(home, store.env);
  const env = await readSmall(envPath);
  if (env.kind === "text" && dotenvValue(env.text, store.variable) !== undefined) {
    const rest = dotenvWith(env.text, store.variable, undefined);
    if (rest.trim() === "") await removeFile(envPath);
    else await writePrivate(home, envPath, rest);
    removed.push(`${store.variable} in ${store.env}`);
  }
  const settingsPath = join(home, store.settings);
  const settings = await readSmall(settingsPath);
  const object = settings.kind === "text" ? parseJsonObject(settings.text) : undefined;
  if (object !== undefined && valueAt(object, SELECTED) === API_KEY_TYPE) {
    await writePrivate(home, settingsPath, jsonText(withValueAt(object, SELECTED, undefined)));
    removed.push(`${SELECTED.join(".")} in ${store.settings}`);
  }
  return { removed, kept: [] };
}
