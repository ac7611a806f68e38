// The parts of a turn's plan that differ over ACP: the server's argv (its `{full}` slot filled
// under policy `auto`), the variable that points an adapter at the agent's CLI, and the session a
// continued conversation loads. Pure.

import type { AcpLaunch, AdapterDescriptor } from "../../adapters.js";
import { ScvError } from "../../errors.js";
import type { ConversationRecord } from "../../home/conversations.js";
import type { SessionArg } from "../../transport/argv.js";
import type { Policy } from "../../transport/env.js";

/** What an agent wrote as a session id, before it goes back to the agent in `session/load`:
 * printable, without spaces, and short. */
const ACP_SESSION_ID = /^[\x21-\x7e]{1,200}$/;

export function isAcpSessionId(id: string): boolean {
  return ACP_SESSION_ID.test(id);
}

/** The ACP server's arguments: `{full}` is the launch arguments that grant everything under
 * `auto`, and nothing otherwise; the model where the server takes it at launch (`model` is checked
 * as a model id first: it becomes an argument). */
export function acpArgs(acp: AcpLaunch, policy: Policy, model: string | undefined): string[] {
  const full = policy === "auto" && acp.full.kind === "args" ? acp.full.args : [];
  const args = acp.args.flatMap((arg) => (arg === "{full}" ? [...full] : [arg]));
  if (model !== undefined && acp.modelArgs !== undefined)
    args.push(...acp.modelArgs.map((arg) => arg.replaceAll("{model}", model)));
  return args;
}

/** The variable that makes an adapter drive the agent's CLI where scv located it (`cli`); nothing
 * when the launch has no such variable or the CLI is not installed (the adapter then runs the CLI
 * it bundles). Set before the config's env for the agent, which may name it otherwise. */
export function acpCliEnvironment(acp: AcpLaunch, cli: string | undefined): Record<string, string> {
  return acp.cliPathVariable === undefined || cli === undefined ? {} : { [acp.cliPathVariable]: cli };
}

/** The session to load for a continued conversation; a first turn's session is the agent's to
 * name (`session/new`). */
export function acpSession(
  entry: AdapterDescriptor,
  record: ConversationRecord | undefined,
): SessionArg | undefined {
  if (record === undefined) return undefined;
  if (record.sessionId === undefined || !ACP_SESSION_ID.test(record.sessionId)) {
    throw new ScvError(
      "UNKNOWN_CONVERSATION",
      `conversation ${record.handle} has no ${entry.product} session to continue — start a new one`,
    );
  }
  return { kind: "continue", id: record.sessionId };
}
