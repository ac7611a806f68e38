// An OAuth sign-in the CLI's own login writes into a JSON file: an object of tokens, an expiry and a
// plan, at a path the row names. Where the CLI keeps the tokens in the macOS keychain instead, the
// member its sign-in leaves in its config file says that it is signed in.

import { join } from "node:path";
import type { KeyStore } from "../../adapters.js";
import {
  day,
  isFilled,
  isRecord,
  looseModeNote,
  parseJsonObject,
  readSmall,
  removeFile,
  type StoreInspection,
  valueAt,
} from "./files.js";
import type { InspectOptions, StoreKind } from "./keystore-types.js";

type OauthFileStore = Extract<KeyStore, { kind: "oauth-file" }>;

async function inspectOauthFile(
  store: OauthFileStore,
  home: string,
  options: InspectOptions,
): Promise<StoreInspection> {
  const file = await readSmall(join(home, store.file));
  if (file.kind === "unreadable") {
    return { state: "unknown", detail: `${store.file} cannot be read (${file.reason})` };
  }
  if (file.kind === "absent") {
    const keychain = store.keychain;
    if (options.platform !== "darwin" || keychain === undefined)
      return { state: "signed-out", detail: `no ${store.is} stored` };
    const config = await readSmall(join(home, keychain.file), 16 * 1024 * 1024);
    const account = config.kind === "text" ? valueAt(parseJsonObject(config.text), keychain.path) : undefined;
    return isRecord(account)
      ? { state: "signed-in", detail: `${store.is} (tokens in the macOS keychain)` }
      : { state: "signed-out", detail: `no ${store.is} recorded` };
  }
  const oauth = valueAt(parseJsonObject(file.text), store.path);
  const { access, refresh, expiresAt, plan } = store.fields;
  if (!isRecord(oauth) || !(isFilled(oauth[access]) || isFilled(oauth[refresh]))) {
    return { state: "signed-out", detail: `${store.file} holds no ${store.is}` };
  }
  const planName = oauth[plan];
  const named = typeof planName === "string" && /^[a-z_]{1,20}$/.test(planName);
  const what = `${store.is}${named ? ` (${planName})` : ""}`;
  const mode = looseModeNote(file.mode);
  // With a refresh token the CLI renews the short-lived access token itself.
  if (isFilled(oauth[refresh])) return { state: "signed-in", detail: `${what}, renewable${mode}` };
  const expiry = oauth[expiresAt];
  const expires = typeof expiry === "number" ? new Date(expiry) : undefined;
  if (expires !== undefined && !Number.isNaN(expires.getTime())) {
    if (expires.getTime() <= options.now.getTime()) {
      return { state: "signed-out", detail: `${what} expired on ${day(expires)}` };
    }
    return { state: "signed-in", detail: `${what}, expires ${day(expires)}${mode}` };
  }
  return { state: "signed-in", detail: `${what}${mode}` };
}

export const oauthFileStore: StoreKind<OauthFileStore> = {
  files: (store) => [store.file, ...(store.keychain === undefined ? [] : [store.keychain.file])],
  inspect: inspectOauthFile,
  // The keychain's file is the CLI's whole config (projects, settings), not a credential.
  remove: async (store, home) => ({
    removed: (await removeFile(join(home, store.file))) ? [store.file] : [],
    kept: [],
  }),
};
