// `agent[:model][/effort][@account[,account…]]` as written on a command line, in scv's config or
// given to an MCP tool. The accounts come after the last `@` (src/accounts.ts says what a name is). A model may itself
// contain `/` (`openai/gpt-5.5`) and `:`, so a last `/…` is the effort when it is one of the agent's
// levels; when it only looks like one (a misspelling, another agent's level), or the agent's model ids
// have no `/` (its row's `modelsMayHaveSlash`), the spec is refused before anything runs rather than
// handed to the CLI as a model it does not have.

import { parseAccountList } from "./accounts.js";
import { type AdapterDescriptor, adapter, EXAMPLE_AGENTS } from "./adapters.js";
import { isEffortWord, nearestEffort } from "./effort.js";
import { ScvError } from "./errors.js";

/** An agent as written on the command line: `agent[:model][/effort][@account[,account…]]`. */
export interface AgentSpec {
  readonly agent: string;
  readonly model?: string;
  readonly effort?: string;
  /** The accounts to try, in order; absent when the target names none. */
  readonly accounts?: readonly string[];
}

export function parseAgentSpec(text: string): AgentSpec {
  const at = text.lastIndexOf("@");
  if (at === -1) return parseModelSpec(text);
  const spec = parseModelSpec(text.slice(0, at), text);
  return { ...spec, accounts: parseAccountList(text.slice(at + 1), text) };
}

function parseModelSpec(text: string, whole = text): AgentSpec {
  const match = /^([a-z][a-z0-9-]*)(.*)$/s.exec(text);
  const agent = match?.[1];
  const rest = match?.[2] ?? "";
  if (agent === undefined || (rest !== "" && !rest.startsWith(":") && !rest.startsWith("/"))) {
    throw new ScvError(
      "USAGE",
      `'${whole}' is not an agent — write agent[:model][/effort][@account,…], such as ${EXAMPLE_AGENTS[0]}:gpt-5.5/high@work`,
    );
  }
  if (rest === "") return { agent };
  if (rest.startsWith("/")) return { agent, effort: nonEmpty(rest.slice(1), whole) };
  const spec = rest.slice(1);
  if (spec.endsWith("/")) nonEmpty("", whole);
  const slash = spec.lastIndexOf("/");
  const entry = adapter(agent);
  // An unknown agent, or one that takes no model, is refused for that once the turn is planned.
  if (slash === -1 || entry === undefined || entry.modelArgs.length === 0) {
    return { agent, model: nonEmpty(spec, whole) };
  }
  const model = nonEmpty(spec.slice(0, slash), whole);
  const last = spec.slice(slash + 1);
  if (entry.effortLevels.includes(last)) return { agent, model, effort: last };
  const refusal = notAModel(entry, whole, model, last);
  if (refusal !== undefined) throw new ScvError("USAGE", refusal);
  return { agent, model: spec };
}

/** Why `model/last` cannot be a model id of `entry`, or undefined when it can. */
function notAModel(entry: AdapterDescriptor, text: string, model: string, last: string): string | undefined {
  const levels = entry.effortLevels;
  const asModel = "a model id with that '/' goes in -m";
  const efforts = `efforts for ${entry.name}: ${levels.join(", ")}`;
  const near = nearestEffort(levels, last);
  if (near !== undefined) return `'${text}': did you mean ${entry.name}:${model}/${near}? ${efforts}`;
  if (levels.length === 0 && (isEffortWord(last) || !entry.modelsMayHaveSlash)) {
    return `'${text}': ${entry.product} takes no effort level — write ${entry.name}:${model} (${asModel})`;
  }
  if (isEffortWord(last) || !entry.modelsMayHaveSlash) {
    return `'${text}': '${last}' is not an effort level of ${entry.name} — ${efforts} (${asModel})`;
  }
  return undefined;
}

function nonEmpty(value: string, text: string): string {
  if (value === "")
    throw new ScvError("USAGE", `'${text}' names an empty model or effort — write agent[:model][/effort]`);
  return value;
}
