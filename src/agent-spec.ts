// `agent[:model][/effort]` as written on a command line or given to an MCP tool. A model may itself
// contain `/` (`openai/gpt-5.5`) and `:`, so a last `/…` is the effort when it is one of the agent's
// levels; when it only looks like one (a misspelling, another agent's level), or the agent's model ids
// have no `/` (its row's `modelsMayHaveSlash`), the spec is refused before anything runs rather than
// handed to the CLI as a model it does not have.

import { type AdapterDescriptor, adapter } from "./adapters.js";
import { isEffortWord, nearestEffort } from "./effort.js";
import { ScvError } from "./errors.js";

/** An agent as written on the command line: `agent[:model][/effort]`. */
export interface AgentSpec {
  readonly agent: string;
  readonly model?: string;
  readonly effort?: string;
}

export function parseAgentSpec(text: string): AgentSpec {
  const match = /^([a-z][a-z0-9-]*)(.*)$/s.exec(text);
  const agent = match?.[1];
  const rest = match?.[2] ?? "";
  if (agent === undefined || (rest !== "" && !rest.startsWith(":") && !rest.startsWith("/"))) {
    throw new ScvError(
      "USAGE",
      `'${text}' is not an agent — write agent[:model][/effort], such as codex:gpt-5.5/high`,
    );
  }
  if (rest === "") return { agent };
  if (rest.startsWith("/")) return { agent, effort: nonEmpty(rest.slice(1), text) };
  const spec = rest.slice(1);
  if (spec.endsWith("/")) nonEmpty("", text);
  const slash = spec.lastIndexOf("/");
  const entry = adapter(agent);
  // An unknown agent, or one that takes no model, is refused for that once the turn is planned.
  if (slash === -1 || entry === undefined || entry.modelArgs.length === 0) {
    return { agent, model: nonEmpty(spec, text) };
  }
  const model = nonEmpty(spec.slice(0, slash), text);
  const last = spec.slice(slash + 1);
  if (entry.effortLevels.includes(last)) return { agent, model, effort: last };
  const refusal = notAModel(entry, text, model, last);
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
