// Grok Build (not on npm; the seed's facts): `grok login` writes sign-ins into `auth.json`, a JSON
// object of entries; an API key may instead sit in a model profile of `config.toml`.

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
import type { RemoveResult, StoreKind } from "./types.js";

type GrokStore = Extract<KeyStore, { kind: "grok" }>;

async function inspectGrok(store: GrokStore, home: string): Promise<StoreInspection> {
  const auth = await readSmall(join(home, store.auth));
  if (auth.kind === "unreadable") {
    return { state: "unknown", detail: `${store.auth} cannot be read (${auth.reason})` };
  }
  if (auth.kind === "text") {
    const entries = parseJsonObject(auth.text);
    if (entries === undefined) return { state: "unknown", detail: `${store.auth} is not a JSON object` };
    const count = Object.keys(entries).length;
    if (count > 0) {
      const what = count === 1 ? "1 sign-in" : `${count} sign-ins`;
      return { state: "signed-in", detail: `${what} from its own login${looseModeNote(auth.mode)}` };
    }
  }
  const config = await readSmall(join(home, store.config));
  if (config.kind === "text") {
    let parsed: unknown;
    try {
      parsed = parseToml(config.text);
    } catch {
      return { state: "unknown", detail: `${store.config} is not valid TOML` };
    }
    if (hasApiKey(parsed)) return { state: "signed-in", detail: `API key in ${store.config}` };
  }
  return { state: "signed-out", detail: `no sign-in in ${store.auth} and no API key in ${store.config}` };
}

/** Whether any table holds a filled `api_key`; which profile is the default model's is the CLI's
 * business, so any profile with a key counts. */
function hasApiKey(value: unknown, depth = 0): boolean {
  if (!isRecord(value) || depth > 8) return false;
  return Object.entries(value).some(
    ([name, inner]) => (name === "api_key" && isFilled(inner)) || hasApiKey(inner, depth + 1),
  );
}

export const grokStore: StoreKind<GrokStore> = {
  files: (store) => [store.auth, store.config],
  inspect: inspectGrok,
  async remove(store, home): Promise<RemoveResult> {
    const removed = (await removeFile(join(home, store.auth))) ? [store.auth] : [];
    // A key in a model profile of config.toml is in the CLI's own shape; scv leaves the file alone.
    const left = await inspectGrok(store, home);
    return { removed, kept: left.state === "signed-in" ? [`the API key in ${store.config}`] : [] };
  },
};
