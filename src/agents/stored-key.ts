// The API key scv stored for an agent: which store of the row holds it, and what a run of the CLI is
// given of it besides the file (src/home/keystore.ts).

import { type AdapterDescriptor, type ApiKeyStore, type Login, unreachable } from "../adapters.js";
import { keyEnvironment } from "../home/keystore.js";

/** The row's `--with-api-key` store, if it has one. */
export function apiKeyStoreOf(login: Login): ApiKeyStore | undefined {
  switch (login.kind) {
    case "api-key":
      return login.store;
    case "command":
    case "interactive":
      return login.apiKey;
    case "import":
      return undefined;
    default:
      return unreachable(login);
  }
}

/** Variables that give the key scv stored in `home` to a run of the agent's CLI, where its row's
 * store says so (a CLI that does not always read its file); none otherwise. */
export async function storedKeyEnvironment(
  entry: AdapterDescriptor,
  home: string,
): Promise<Record<string, string>> {
  const store = apiKeyStoreOf(entry.login);
  return store === undefined ? {} : keyEnvironment(store, home);
}
