// The README's opening sentence names the agents scv reaches: generated from the adapter table by
// `npm run docs`, so a row added there is named there too (the docs test checks it).

import { ADAPTERS } from "../src/adapters.js";

export const AGENT_NAMES_START = "<!-- agents: generated from src/adapters.ts by `npm run docs` -->";
export const AGENT_NAMES_END = "<!-- /agents -->";

/** Each product of the table once, in the table's order (its sign-in variants as one: "Claude Code"). */
export function renderAgentNames(): string {
  const products = ADAPTERS.map((entry) => entry.product.replace(/ \(.*\)$/, ""));
  return `${AGENT_NAMES_START}${[...new Set(products)].join(", ")}${AGENT_NAMES_END}`;
}

/** `page` with the text between the agent-names markers regenerated. */
export function withAgentNames(page: string): string {
  const start = page.indexOf(AGENT_NAMES_START);
  const end = page.indexOf(AGENT_NAMES_END);
  if (start === -1 || end < start) throw new Error("README.md has no agent-names markers");
  return page.slice(0, start) + renderAgentNames() + page.slice(end + AGENT_NAMES_END.length);
}
