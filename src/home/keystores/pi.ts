// pi's agent directory (PI_CODING_AGENT_DIR): `auth.json` holds its own sign-ins (`/login`: an entry
// per provider, `{"type":"api_key","key":…}` or `{"type":"oauth",…}`; created as `{}` on first run),
// and `models.json` custom providers with an `apiKey` (the lab's OpenAI-compatible endpoint).

import { join } from "node:path";
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
import type { RemoveResult } from "./types.js";

type PiStore = Extract<KeyStore, { kind: "pi" }>;

/** The files of the store, relative to the agent home. */
export function piFiles(store: PiStore): string[] {
  return [`${store.dir}/auth.json`, `${store.dir}/models.json`];
}

function plural(count: number, one: string): string {
  return count === 1 ? `1 ${one}` : `${count} ${one}s`;
}

export async function inspectPi(store: PiStore, home: string): Promise<StoreInspection> {
  const [authName, modelsName] = piFiles(store) as [string, string];
  const found: string[] = [];
  let loose = "";
  const auth = await readSmall(join(home, authName));
  if (auth.kind === "unreadable")
    return { state: "unknown", detail: `${authName} cannot be read (${auth.reason})` };
  if (auth.kind === "text") {
    const entries = parseJsonObject(auth.text);
    if (entries === undefined) return { state: "unknown", detail: `${authName} is not a JSON object` };
    const values = Object.values(entries).filter(isRecord);
    const keys = values.filter((entry) => entry.type === "api_key" && isFilled(entry.key)).length;
    const logins = values.filter(
      (entry) => entry.type === "oauth" && (isFilled(entry.refresh) || isFilled(entry.access)),
    ).length;
    if (keys > 0) found.push(`${plural(keys, "API key")} in auth.json`);
    if (logins > 0) found.push(`${plural(logins, "provider sign-in")} in auth.json`);
    loose = looseModeNote(auth.mode);
  }
  const models = await readSmall(join(home, modelsName));
  if (models.kind === "text") {
    const providers = parseJsonObject(models.text)?.providers;
    const withKeys = isRecord(providers)
      ? Object.values(providers).filter((provider) => isRecord(provider) && isFilled(provider.apiKey)).length
      : 0;
    if (withKeys > 0) found.push(`${plural(withKeys, "custom provider")} with a key in models.json`);
  }
  if (found.length === 0)
    return { state: "signed-out", detail: "no key or sign-in in auth.json or models.json" };
  return { state: "signed-in", detail: `${found.join("; ")}${loose}` };
}

/** Both files are the store's: `auth.json` holds only credentials, and `models.json` providers carry
 * their keys. */
export async function removePi(store: PiStore, home: string): Promise<RemoveResult> {
  const removed: string[] = [];
  for (const name of piFiles(store)) if (await removeFile(join(home, name))) removed.push(name);
  return { removed, kept: [] };
}
