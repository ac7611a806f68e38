// Keys per model provider in two JSON files: the CLI's own sign-ins in one (an entry per provider,
// `{"type":"api_key","key":…}` or `{"type":"oauth",…}`), and custom providers with an `apiKey` in the
// other (`providers.<name>.apiKey`), whose other members are the user's configuration.

import { basename, join } from "node:path";
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
import type { RemoveResult, StoreKind } from "./keystore-types.js";

type ProviderKeysStore = Extract<KeyStore, { kind: "provider-keys" }>;

function plural(count: number, one: string): string {
  return count === 1 ? `1 ${one}` : `${count} ${one}s`;
}

async function inspectProviderKeys(store: ProviderKeysStore, home: string): Promise<StoreInspection> {
  const { auth: authName, models: modelsName } = store;
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
    if (keys > 0) found.push(`${plural(keys, "API key")} in ${basename(authName)}`);
    if (logins > 0) found.push(`${plural(logins, "provider sign-in")} in ${basename(authName)}`);
    loose = looseModeNote(auth.mode);
  }
  const models = await readSmall(join(home, modelsName));
  if (models.kind === "text") {
    const providers = parseJsonObject(models.text)?.providers;
    const withKeys = isRecord(providers)
      ? Object.values(providers).filter((provider) => isRecord(provider) && isFilled(provider.apiKey)).length
      : 0;
    if (withKeys > 0)
      found.push(`${plural(withKeys, "custom provider")} with a key in ${basename(modelsName)}`);
  }
  if (found.length === 0)
    return {
      state: "signed-out",
      detail: `no key or sign-in in ${basename(authName)} or ${basename(modelsName)}`,
    };
  return { state: "signed-in", detail: `${found.join("; ")}${loose}` };
}

/** The sign-ins' file holds only credentials and goes whole; in the providers' file only their
 * `apiKey` fields go — the provider and model definitions are the user's configuration. */
async function removeProviderKeys(store: ProviderKeysStore, home: string): Promise<RemoveResult> {
  const { auth: authName, models: modelsName } = store;
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

export const providerKeysStore: StoreKind<ProviderKeysStore> = {
  files: (store) => [store.auth, store.models],
  inspect: inspectProviderKeys,
  remove: removeProviderKeys,
};
