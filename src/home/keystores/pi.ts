// pi's agent directory (PI_CODING_AGENT_DIR): `auth.json` holds its own sign-ins (`/login`: an entry
// per provider, `{"type":"api_key","key":…}` or `{"type":"oauth",…}`; created as `{}` on first run),
// and `models.json` custom providers with an `apiKey` (the lab's OpenAI-compatible endpoint).

import { join } from "node:path";
import type { KeyStore } from "../../adapters.js";
import {
  isFilled,
  isRecord,
  jsonText,
  looseModeNote,
  parseJsonObject,
  readSmall,
  removeFile,
  type StoreInspection,
  writePrivate,
} from "./files.js";
import type { RemoveResult, StoreKind } from "./types.js";

type PiStore = Extract<KeyStore, { kind: "pi" }>;

/** The files of the store, relative to the agent home. */
function piFiles(store: PiStore): string[] {
  return [`${store.dir}/auth.json`, `${store.dir}/models.json`];
}

function plural(count: number, one: string): string {
  return count === 1 ? `1 ${one}` : `${count} ${one}s`;
}

async function inspectPi(store: PiStore, home: string): Promise<StoreInspection> {
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

/** `auth.json` holds only credentials and goes whole; in `models.json` only the providers' `apiKey`
 * fields go — the provider and model definitions are the user's configuration, not a sign-in. */
async function removePi(store: PiStore, home: string): Promise<RemoveResult> {
  const [authName, modelsName] = piFiles(store) as [string, string];
  const removed: string[] = [];
  const kept: string[] = [];
  if (await removeFile(join(home, authName))) removed.push(authName);
  const modelsPath = join(home, modelsName);
  const models = await readSmall(modelsPath);
  if (models.kind === "text") {
    const config = parseJsonObject(models.text);
    const providers = config?.providers;
    if (config === undefined || (providers !== undefined && !isRecord(providers))) {
      kept.push(`${modelsName} (not the JSON scv knows: look in it for keys)`);
    } else if (isRecord(providers)) {
      const keyed = Object.entries(providers).filter(
        ([, provider]) => isRecord(provider) && "apiKey" in provider,
      );
      if (keyed.length > 0) {
        const unkeyed = Object.fromEntries(
          Object.entries(providers).map(([name, provider]) => {
            if (!isRecord(provider)) return [name, provider];
            const { apiKey: _removed, ...rest } = provider;
            return [name, rest];
          }),
        );
        await writePrivate(home, modelsPath, jsonText({ ...config, providers: unkeyed }));
        removed.push(`the apiKey of ${keyed.map(([name]) => name).join(", ")} in ${modelsName}`);
      }
    }
  } else if (models.kind === "unreadable") {
    kept.push(`${modelsName} (cannot be read: ${models.reason})`);
  }
  return { removed, kept };
}

export const piStore: StoreKind<PiStore> = { files: piFiles, inspect: inspectPi, remove: removePi };
