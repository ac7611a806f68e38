// Qwen Code with an OpenAI-compatible key: `OPENAI_API_KEY` in the `env` block of
// `~/.qwen/settings.json`, with `security.auth.selectedType` "openai" — the lab's working recipe (an
// endpoint, `OPENAI_BASE_URL`, may sit beside it in the same block and is kept).

import { join } from "node:path";
import type { KeyStore } from "../../adapters.js";
import {
  isFilled,
  jsonText,
  looseModeNote,
  parseJsonObject,
  readSettingsObject,
  readSmall,
  type StoreInspection,
  valueAt,
  withValueAt,
  writePrivate,
} from "./files.js";
import type { RemoveResult } from "./types.js";

type QwenStore = Extract<KeyStore, { kind: "qwen-settings" }>;

const SELECTED = ["security", "auth", "selectedType"] as const;
const KEY_TYPE = "openai";

export async function inspectQwen(store: QwenStore, home: string): Promise<StoreInspection> {
  const file = await readSmall(join(home, store.settings));
  if (file.kind === "unreadable") {
    return { state: "unknown", detail: `${store.settings} cannot be read (${file.reason})` };
  }
  const settings = file.kind === "text" ? parseJsonObject(file.text) : undefined;
  if (file.kind === "text" && settings === undefined) {
    return { state: "unknown", detail: `${store.settings} is not a JSON object` };
  }
  if (file.kind === "absent" || !isFilled(valueAt(settings, ["env", store.variable]))) {
    return { state: "signed-out", detail: `no ${store.variable} in ${store.settings}` };
  }
  const selected = valueAt(settings, SELECTED);
  if (selected !== KEY_TYPE) {
    return { state: "unknown", detail: `API key present, but ${store.settings} selects another sign-in` };
  }
  return { state: "signed-in", detail: `API key in ${store.settings}${looseModeNote(file.mode)}` };
}

export async function qwenConflict(store: QwenStore, home: string): Promise<string | undefined> {
  const file = await readSmall(join(home, store.settings));
  const selected = file.kind === "text" ? valueAt(parseJsonObject(file.text), SELECTED) : undefined;
  if (selected === undefined || selected === KEY_TYPE) return undefined;
  return `${store.settings} selected another sign-in; it now selects the OpenAI-compatible key`;
}

export async function saveQwen(store: QwenStore, home: string, key: string): Promise<void> {
  const path = join(home, store.settings);
  const settings = await readSettingsObject(path, store.settings);
  // One atomic write: the key and the selection land together or not at all.
  const withKey = withValueAt(settings, ["env", store.variable], key);
  await writePrivate(home, path, jsonText(withValueAt(withKey, SELECTED, KEY_TYPE)));
}

/** Removes the key (and the auth selection scv made) from the settings; every other setting stays. */
export async function removeQwen(store: QwenStore, home: string): Promise<RemoveResult> {
  const path = join(home, store.settings);
  const file = await readSmall(path);
  const settings = file.kind === "text" ? parseJsonObject(file.text) : undefined;
  if (settings === undefined || valueAt(settings, ["env", store.variable]) === undefined) {
    return { removed: [], kept: [] };
  }
  let rest = withValueAt(settings, ["env", store.variable], undefined);
  if (valueAt(rest, SELECTED) === KEY_TYPE) rest = withValueAt(rest, SELECTED, undefined);
  await writePrivate(home, path, jsonText(rest));
  return { removed: [`${store.variable} in ${store.settings}`], kept: [] };
}
