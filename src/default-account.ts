// The name of an agent's plain home's account, apart from the rest of src/accounts.ts: scv's home
// paths need it, and with them the launcher (cli/compile-cache.ts), which must not load the table
// that accounts.ts's messages name their examples from.

/** The account of an agent's plain home: `<agent>` and `<agent>@default` name the same sign-in. */
export const DEFAULT_ACCOUNT = "default";
