// An agent's accounts: each sign-in of one agent lives in its own private home (`agents/<agent>` for
// the default account, `agents/<agent>@<account>` for a named one). A name is a short slug, so it is
// safe as a folder name and cannot be mistaken for a model's own `@` (a Vertex model id's
// `model-x@20250514`: a name starts with a letter).

import { EXAMPLE_AGENTS } from "./adapters.js";
import { DEFAULT_ACCOUNT } from "./default-account.js";
import { ScvError } from "./errors.js";

export { DEFAULT_ACCOUNT };

const ACCOUNT = /^[a-z][a-z0-9-]{0,31}$/;
const FORM = `write agent@account[,account…], such as ${EXAMPLE_AGENTS[0]}@work,personal`;

/** What an account name may be, as every refusal of one says it. */
export const ACCOUNT_NAME_RULE = "use a-z, 0-9 and '-', up to 32, starting with a letter";

/** Whether `name` is an account name scv accepts. */
export function isAccountName(name: string): boolean {
  return ACCOUNT.test(name);
}

/** `name`, refused unless it is an account name: whatever a request came from (a target, a background
 * job's request, the config), the name becomes a folder and a file name. */
export function requireAccountName(name: string): string {
  if (!isAccountName(name))
    throw new ScvError("USAGE", `'${name}' is not an account name — ${ACCOUNT_NAME_RULE}`);
  return name;
}

/** The accounts of `list` (the text after a target's `@`), in order; `text` names the whole target
 * in messages. Empty items, duplicates and names that are no slug are refused. */
export function parseAccountList(list: string, text: string): string[] {
  if (list === "") throw new ScvError("USAGE", `'${text}' names no account after '@' — ${FORM}`);
  const accounts = list.split(",");
  const seen = new Set<string>();
  for (const account of accounts) {
    if (account === "") throw new ScvError("USAGE", `'${text}' has an empty account in its list — ${FORM}`);
    if (!isAccountName(account)) {
      throw new ScvError(
        "USAGE",
        `'${text}': '${account}' is not an account name — ${ACCOUNT_NAME_RULE} (a model id with '@' goes in -m)`,
      );
    }
    if (seen.has(account))
      throw new ScvError("USAGE", `'${text}' names account '${account}' twice — name it once`);
    seen.add(account);
  }
  return accounts;
}

/** The account a conversation's record names, whose home alone holds its session; a record on disk
 * naming no usable one is refused. */
export function recordedAccount(handle: string, account: string | undefined): string {
  const own = account ?? DEFAULT_ACCOUNT;
  if (!isAccountName(own))
    throw new ScvError(
      "UNKNOWN_CONVERSATION",
      `conversation ${handle} names no usable account ('${own}') — start a new conversation`,
    );
  return own;
}

/** `<agent>@work`, or `<agent>` for the default account: how scv names one sign-in to the user. */
export function accountLabel(agent: string, account: string | undefined): string {
  return account === undefined || account === DEFAULT_ACCOUNT ? agent : `${agent}@${account}`;
}

/** `<agent>@work` → the agent and its account (`<agent>` → the default); for the agents commands. */
export function parseAccountTarget(text: string): { agent: string; account: string } {
  const at = text.indexOf("@");
  if (at === -1) return { agent: text, account: DEFAULT_ACCOUNT };
  const accounts = parseAccountList(text.slice(at + 1), text);
  if (accounts.length !== 1)
    throw new ScvError(
      "USAGE",
      `'${text}' names several accounts — name one, such as ${text.slice(0, at)}@${accounts[0]}`,
    );
  return { agent: text.slice(0, at), account: accounts[0] ?? DEFAULT_ACCOUNT };
}
