// Sign-ins a CLI's own login writes as the entries of a JSON object (each entry one sign-in), or an
// API key in any table of its TOML config.

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
  type StoreInspection,
} from "./files.js";
import type { RemoveResult, StoreKind } from "./keystore-types.js";

type JsonEntriesStore = Extract<KeyStore, { kind: "json-entries" }>;

async function inspectJsonEntries(store: JsonEntriesStore, home: string): Promise<StoreInspection> {
  const auth = await readSmall(join(home, store.file));
  if (auth.kind === "unreadable") {
    return { state: "unknown", detail: `${store.file} cannot be read (${auth.reason})` };
  }
  if (auth.kind === "text") {
    const entries = parseJsonObject(auth.text);
    if (entries === undefined) return { state: "unknown", detail: `${store.file} is not a JSON object` };
    const count = Object.keys(entries).length;
    if (count > 0) {
      const what = count === 1 ? "1 sign-in" : `${count} sign-ins`;
      return { state: "signed-in", detail: `${what} from its own login${looseModeNote(auth.mode)}` };
    }
  }
  const tomlKey = store.tomlKey;
  if (tomlKey === undefined) return { state: "signed-out", detail: `no sign-in in ${store.file}` };
  const config = await readSmall(join(home, tomlKey.file));
  if (config.kind === "text") {
    let parsed: unknown;
    try {
      parsed = parseToml(config.text);
    } catch {
      return { state: "unknown", detail: `${tomlKey.file} is not valid TOML` };
    }
    if (hasKey(parsed, tomlKey.key)) return { state: "signed-in", detail: `API key in ${tomlKey.file}` };
  }
  return {
    state: "signed-out",
    detail: `no sign-in in ${store.file} and no API key in ${tomlKey.file}`,
  };
}

/** Whether any table holds a filled `key`: which table the CLI reads is its own business, so any one
 * with a key counts. */
function hasKey(value: unknown, key: string, depth = 0): boolean {
  if (!isRecord(value) || depth > 8) return false;
  return Object.entries(value).some(
    ([name, inner]) => (name === key && isFilled(inner)) || hasKey(inner, key, depth + 1),
  );
}

export const jsonEntriesStore: StoreKind<JsonEntriesStore> = {
  files: (store) => [store.file, ...(store.tomlKey === undefined ? [] : [store.tomlKey.file])],
  inspect: inspectJsonEntries,
  async remove(store, home): Promise<RemoveResult> {
    const removed = (await removeFile(join(home, store.file))) ? [store.file] : [];
    // A key in the TOML config is in the CLI's own shape; scv leaves the file alone.
    const left = await inspectJsonEntries(store, home);
    const kept =
      left.state === "signed-in" && store.tomlKey !== undefined
        ? [`the API key in ${store.tomlKey.file}`]
        : [];
    return { removed, kept };
  },
};
