// What the contract suite expects of each real CLI when scv drives it: how a user signs it in, what
// `scv agents status` can tell, how its 429 turn ends, and what it reports. Everything the adapter table
// already says (session id shape, transcript folder, effort levels, mode report) is read from the table
// itself, so the suite checks the table's claims rather than repeating them.
import { ADAPTERS, type AdapterDescriptor } from "../../src/adapters.js";
import type { RealCli } from "./clis.js";

type SignInState = "signed-in" | "signed-out" | "unknown";

export interface Profile {
  readonly cli: RealCli;
  /**
   * `api-key`: `scv agents login <cli> --with-api-key` with the key on stdin, the endpoint written into the
   * agent home beforehand. `files`: the CLI's own files (clis.ts recipes) in its agent home, key included,
   * or for copilot the per-agent environment in scv's config.
   */
  readonly signIn: "api-key" | "files";
  /** `scv agents status <cli>` before sign-in, after it, and after `scv agents logout` (undefined: the row's
   * logout opens the CLI interactively, which a headless suite cannot drive). */
  readonly status: { before: SignInState; after: SignInState; afterLogout?: SignInState };
  /** Why `afterLogout` is not checked. */
  readonly logoutSkipped?: string;
  /**
   * The 429 turn: exit 5 once the CLI gives up (retries kept low through its own config), or, where the
   * CLI has no such knob, whichever comes first of its own giving up (5) and scv's `--timeout` (124).
   */
  readonly rateLimit: { exits: readonly (5 | 124)[]; timeout: string };
  /** Whether its stream carries token usage (Copilot's `-p` JSON stream has none in BYOK mode). */
  readonly usage: boolean;
  /** Why a 403 refusing the model reads as a failed sign-in (exit 4): the CLI drops the API's message. */
  readonly modelRefusalHidden?: string;
  /** Upper bound for one ordinary turn (its own `--timeout`); slow starters get more. */
  readonly turnTimeout: string;
}

export const PROFILES: readonly Profile[] = [
  {
    cli: "claude",
    signIn: "api-key",
    status: { before: "signed-out", after: "signed-in", afterLogout: "signed-out" },
    rateLimit: { exits: [5], timeout: "60s" },
    usage: true,
    turnTimeout: "90s",
  },
  {
    cli: "codex",
    signIn: "api-key",
    status: { before: "signed-out", after: "signed-in", afterLogout: "signed-out" },
    rateLimit: { exits: [5], timeout: "60s" },
    usage: true,
    turnTimeout: "90s",
  },
  {
    cli: "pi",
    signIn: "files",
    status: { before: "signed-out", after: "signed-in", afterLogout: "signed-out" },
    rateLimit: { exits: [5], timeout: "60s" },
    usage: true,
    turnTimeout: "90s",
  },
  {
    cli: "gemini",
    signIn: "api-key",
    // The row's status is "unchecked": scv cannot tell without a real call (`scv agents check`),
    // except that the key `login --with-api-key` stored signs it in; logout removes that key.
    status: { before: "unknown", after: "signed-in", afterLogout: "unknown" },
    // general.maxAttempts = 1: Gemini gives up on the first 429.
    rateLimit: { exits: [5], timeout: "60s" },
    usage: true,
    turnTimeout: "90s",
  },
  {
    cli: "qwen",
    signIn: "api-key",
    status: { before: "unknown", after: "signed-in", afterLogout: "unknown" },
    // maxRetries 0 still leaves qwen's fixed inner loop of 7 quick attempts (10–30 s), then exit 5.
    rateLimit: { exits: [5], timeout: "90s" },
    usage: true,
    turnTimeout: "120s",
  },
  {
    cli: "opencode",
    signIn: "files",
    status: { before: "unknown", after: "unknown" },
    logoutSkipped:
      "`opencode auth logout` is an interactive picker, and the mock provider's key lives in opencode.json",
    // No retry setting: 9 attempts with hard-coded backoff, 11 s on an idle machine and 40+ s on a loaded
    // one, after a start-up of 5–30 s; so the turn's --timeout may end it first (124, nothing left running).
    rateLimit: { exits: [5, 124], timeout: "45s" },
    usage: true,
    turnTimeout: "120s",
  },
  {
    cli: "copilot",
    signIn: "files",
    status: { before: "unknown", after: "unknown" },
    logoutSkipped: "its logout is interactive (/logout inside the CLI); BYOK has no sign-in to remove",
    // No retry setting either, but it gives up after 5 retries honouring retry-after: 1 (8–15 s).
    rateLimit: { exits: [5], timeout: "60s" },
    usage: false,
    modelRefusalHidden:
      'it reports any provider 403 as "Authentication failed with provider at <url> (HTTP 403)", without the body',
    turnTimeout: "90s",
  },
];

/** The adapter table's row of a CLI. */
export function row(cli: RealCli): AdapterDescriptor {
  const entry = (ADAPTERS as readonly AdapterDescriptor[]).find((candidate) => candidate.name === cli);
  if (entry === undefined) throw new Error(`the adapter table has no row named ${cli}`);
  return entry;
}
