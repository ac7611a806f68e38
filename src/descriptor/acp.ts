// How scv talks to an agent over the Agent Client Protocol, and whether its owner can take a
// conversation over in the CLI's own terminal.

import * as z from "zod/mini";
import { args, envName, envPair, type Field, homePath, pattern, text, verified } from "./fields.js";
import { homeSettings } from "./turn.js";

/** How scv talks to an agent in a turn: its CLI run once per turn (`process`), or its Agent Client
 * Protocol server (JSON-RPC over stdio) started for the turn (`acp`). */
export const transportKind = () => z.enum(["process", "acp"]);
export type TransportKind = Field<typeof transportKind>;

/** What makes an ACP session run without asking, under policy `auto`. */
const acpFull = () =>
  z.discriminatedUnion("kind", [
    /** `session/set_mode` to this mode id, which the session then reports. */
    z.strictObject({ kind: z.literal("mode"), mode: text() }),
    /** `session/set_config_option` of `option` to `value`. */
    z.strictObject({ kind: z.literal("option"), option: text(), value: text() }),
    /** Launch arguments, in place of the `{full}` entry of `args` (dropped under `default`). */
    z.strictObject({ kind: z.literal("args"), args: args() }),
    /** Nothing: the server asks for nothing scv knows how to turn off. */
    z.strictObject({ kind: z.literal("none") }),
  ]);
export type AcpFullPermission = Field<typeof acpFull>;

/** How to start an agent's ACP server, and what its sessions need. */
export const acpLaunch = () =>
  z.strictObject({
    /** The executable: the CLI's own, or the adapter's that `package` installs. */
    command: text(),
    args: args(),
    /** Arguments that choose the model at launch (`{model}`), where the server needs it before any
     * session exists; without them the model is set in the session, from what it offers. */
    modelArgs: z.optional(args()),
    /** The npm package of the official adapter that serves ACP for a CLI without a server of its
     * own: `scv agents install <agent> --acp` installs it into scv's prefix. */
    package: z.optional(text()),
    /** The variable through which the adapter (`package`) runs a given CLI instead of the one it
     * bundles: scv sets it to the agent's CLI as it locates it (the config's `command`, its tools, the
     * usual folders, PATH), so that the adapter drives the same CLI a per-turn turn would run. When
     * the CLI is not installed it stays unset and the adapter runs its own copy. */
    cliPathVariable: z.optional(envName()),
    /** What `auto` sets; scv then checks the mode the session reports. */
    full: acpFull(),
    /** Variables set under policy `auto` besides the mode (a live web search). */
    fullEnvironment: z.array(envPair()),
    /** The prompt answer's `usage` is a running total over the session. */
    cumulativeUsage: z.optional(z.boolean()),
    /** Notices the server sends as message text: an error's prefix, and information's (a retry when it
     * says so; groups `attempt`, `maxAttempts`, `delaySeconds`) — see acp/events/acp-parser.ts. */
    textNotices: z.optional(z.strictObject({ error: z.optional(pattern()), info: pattern() })),
    /** The server answers a prompt whose model call failed `end_turn` with nothing said: a turn
     * without reply text or tool call is a failure, in these words (what happened, what to do). */
    emptyTurnFails: z.optional(text()),
    /** Whether scv ran this server against the loopback mock (`version` is the server's, or the
     * adapter's). */
    verified: verified(),
    /** A limit of the server found in the lab, for docs/agents.md. */
    known: z.optional(text()),
    /** Values scv keeps in the agent home's own JSON settings file before it starts the server. */
    homeSettings: z.optional(homeSettings()),
    /** A server whose `session/load` in the UTC minute the session was saved in destroys it: scv
     * waits for the next minute first (turn/load-minute.ts). The session's files are found below the
     * agent home's `dir`, a few folders deep, by `name`, whose groups give the minute each was made
     * (`minute`, `YYYY-MM-DDTHH-MM` in UTC) and the start of the session's id (`session`); the
     * earliest is the session's own. */
    loadAfterMinute: z.optional(z.strictObject({ dir: homePath(), name: pattern() })),
  });
export type AcpLaunch = Field<typeof acpLaunch>;

/** Whether the owner can take a conversation over in the CLI's own interactive terminal. */
export const takeover = () =>
  z.discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("unsupported") }),
    z.strictObject({ kind: z.literal("refused"), reason: text() }),
    /** `verified`: the CLI version under which the contract suite opened a session scv started,
     * typed a message there and continued after it (test/real/attach.test.ts); absent on a row
     * defined in the user's config. */
    z.strictObject({
      kind: z.literal("supported"),
      args: args(),
      fullArgs: args(),
      verified: z.optional(verified()),
    }),
  ]);
export type Takeover = Field<typeof takeover>;
