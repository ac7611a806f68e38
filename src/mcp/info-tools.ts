// The tools that say what scv can do and has done: agents (what `scv agents list` and `status` say,
// with each agent's accounts, so a caller can pick a target like <agent>@work) and conversations
// (recent ones, to continue by handle).

import { accountLabel } from "../accounts.js";
import { allAdapters } from "../adapters.js";
import { installHint, requireAgent } from "../agents/lookup.js";
import { statusRow } from "../agents/sign-in.js";
import { formatElapsed } from "../duration.js";
import { namedAccounts } from "../home/account-homes.js";
import { agentSettings, loadConfig } from "../home/config.js";
import { listConversations } from "../home/conversations.js";
import type { SignInState } from "../home/keystore.js";
import type { CallContext } from "./job-tools.js";
import type { ToolOutcome } from "./replies.js";
import { type AgentsInput, type ConversationsInput, DEFAULT_CONVERSATIONS } from "./tools.js";

const SIGNED_IN = { "signed-in": "signed in", "signed-out": "not signed in", unknown: "sign-in unknown" };

export async function agentsTool(input: AgentsInput, context: CallContext): Promise<ToolOutcome> {
  const entries = input.agent === undefined ? [...allAdapters()] : [requireAgent(input.agent)];
  const { config } = loadConfig(context.env);
  const agents = await Promise.all(
    entries.map(async (entry) => {
      const row = await statusRow(entry, config, context.env);
      const named = await Promise.all(
        namedAccounts(entry.name, context.env).map((account) =>
          statusRow(entry, config, context.env, account),
        ),
      );
      const configured = config.agents?.[entry.name]?.command;
      return {
        agent: entry.name,
        product: entry.product,
        offers: entry.offers,
        installed: row.installed,
        path: row.path,
        version: row.version,
        signedIn: row.state,
        detail: row.detail,
        install: row.installed ? null : installHint(entry, configured),
        login: row.state === "signed-out" ? `scv agents login ${entry.name}` : null,
        effortLevels: [...entry.effortLevels],
        models: entry.modelHint,
        defaultModel: agentSettings(config, entry.name).model ?? null,
        accounts: [row, ...named].map((each) => ({
          account: each.account,
          target: accountLabel(entry.name, each.account),
          signedIn: each.state,
          detail: each.detail,
          coolingUntil: each.coolingUntil,
        })),
      };
    }),
  );
  const lines = agents.map((agent) => {
    const head = `${agent.agent} — ${agent.product}${agent.version === null ? "" : ` ${agent.version}`}`;
    if (!agent.installed) return `${head}: not installed — ${agent.install}`;
    const state = agent.detail.includes("signed in")
      ? agent.detail
      : `${SIGNED_IN[agent.signedIn]}: ${agent.detail}`;
    const login = agent.login === null ? "" : ` (sign in: ${agent.login})`;
    const effort = agent.effortLevels.length === 0 ? "" : ` Effort: ${agent.effortLevels.join(", ")}.`;
    const model = agent.defaultModel === null ? "" : ` Default model: ${agent.defaultModel}.`;
    return `${head}: ${state}${login}.${effort} Models: ${sentence(agent.models)}${model} Offers: ${sentence(agent.offers)}${accountsText(agent.accounts)}`;
  });
  return { text: lines.join("\n"), structured: { agents }, isError: false };
}

/** ` Accounts: <agent> (signed in), <agent>@work (signed in; cooling until …).` — only where an agent
 * has a named account: the plain name alone is what the line above already says. */
function accountsText(
  accounts: readonly { target: string; signedIn: SignInState; coolingUntil: string | null }[],
): string {
  if (accounts.length < 2) return "";
  const each = accounts.map(
    (account) =>
      `${account.target} (${SIGNED_IN[account.signedIn]}${account.coolingUntil === null ? "" : `; cooling until ${account.coolingUntil}`})`,
  );
  return ` Accounts: ${each.join(", ")}.`;
}

/** `text` ending with one full stop. */
function sentence(text: string): string {
  return text.endsWith(".") ? text : `${text}.`;
}

export async function conversationsTool(
  input: ConversationsInput,
  context: CallContext,
): Promise<ToolOutcome> {
  if (input.agent !== undefined) requireAgent(input.agent);
  const now = Date.now();
  const conversations = listConversations(context.env)
    .records.filter((record) => input.agent === undefined || record.agent === input.agent)
    .slice(0, input.limit ?? DEFAULT_CONVERSATIONS)
    .map((record) => ({
      handle: record.handle,
      agent: record.agent,
      turns: record.turns,
      updatedAt: record.updatedAt,
      cwd: record.cwd,
      model: record.model ?? null,
      lastPrompt: record.lastPrompt ?? null,
      lastStatus: record.lastStatus ?? null,
    }));
  const lines = conversations.map((each) =>
    [
      each.handle,
      each.agent,
      `${each.turns} turn${each.turns === 1 ? "" : "s"}`,
      `${formatElapsed(now - Date.parse(each.updatedAt))} ago`,
      each.lastStatus ?? "-",
      each.cwd,
      each.model ?? "-",
      each.lastPrompt === null ? "-" : JSON.stringify(each.lastPrompt),
    ].join("  "),
  );
  return {
    text: conversations.length === 0 ? "No conversations yet." : lines.join("\n"),
    structured: { conversations },
    isError: false,
  };
}
