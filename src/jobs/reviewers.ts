// Who reviews: the targets given (`scv review <agent> <agent>:<model>`, `--reviewers`, `--review-by`, the
// MCP tools' lists), else the config's `review_by`, else `auto` — up to two installed, signed-in
// agents of model families other than the author's and each other's (src/review/family.ts chooses;
// this module looks at the machine: where each CLI is, whether it is signed in as far as scv can tell
// without running it, src/turn/fallbacks.ts).
//
// API: `splitTargets(text)` (pure), `pickReviewers(input)` → `ReviewerPick`.

import { allAdapters, EXAMPLE_AGENTS } from "../adapters.js";
import { parseAgentSpec } from "../agent-spec.js";
import { locateAgent, requireAgent } from "../agents/lookup.js";
import { ScvError } from "../errors.js";
import { agentSettings, type Config } from "../home/config.js";
import type { Env } from "../home/paths.js";
import {
  chooseReviewers,
  modelFamily,
  type PassedOverReason,
  type ReviewerCandidate,
} from "../review/family.js";
import { agentSignedIn } from "../turn/fallbacks.js";

const AUTO = "auto";

/** `<a>,<b>:<model>@work,personal,<c>` as its targets: a comma starts a new target unless what
 * follows it is an account of the target before (that target names accounts with `@`, and the word is
 * no agent's name). Pure. */
export function splitTargets(text: string): string[] {
  const targets: string[] = [];
  for (const raw of text.split(",")) {
    const part = raw.trim();
    const previous = targets.at(-1);
    const account =
      previous?.includes("@") === true && /^[A-Za-z0-9_.-]+$/.test(part) && requireAgentOrNot(part);
    if (previous !== undefined && account) targets[targets.length - 1] = `${previous},${part}`;
    else targets.push(part);
  }
  return targets.filter((target) => target !== "");
}

/** Whether `word` is no agent's name (so it reads as an account name). */
function requireAgentOrNot(word: string): boolean {
  return !allAdapters().some((entry) => entry.name === word);
}

export interface ReviewerPick {
  readonly reviewers: readonly string[];
  /** `given`: named by the caller; `config`: the config's `review_by`; `auto`: chosen by family. */
  readonly source: "given" | "config" | "auto";
}

export interface PickInput {
  /** The targets named (each one, or `auto` alone); empty or absent: the config's, else auto. */
  readonly given?: readonly string[];
  /** The author's agent and model, whose family `auto` keeps out; absent: no family is kept out. */
  readonly author?: { readonly agent: string; readonly model?: string };
  readonly config: Config;
  readonly env: Env;
  /** Where the config's list came from, for a message about it. */
  readonly configPath?: string;
}

/** Each target checked as `delegate` would check it (the syntax, a known agent), with `where` saying
 * where it was written. */
function checkedTargets(targets: readonly string[], where: string): string[] {
  const seen = new Set<string>();
  for (const target of targets) {
    try {
      requireAgent(parseAgentSpec(target).agent);
    } catch (error) {
      if (error instanceof ScvError)
        throw new ScvError("USAGE", `${where}: ${error.message}`, { cause: error });
      throw error;
    }
    if (seen.has(target))
      throw new ScvError("USAGE", `${where}: ${target} is named twice — name each reviewer once`);
    seen.add(target);
  }
  return [...targets];
}

/** The reviewers of a review. Throws one line (exit 2) for a target that is not one, and for `auto`
 * with nobody left to choose, saying who was passed over and why. */
export async function pickReviewers(input: PickInput): Promise<ReviewerPick> {
  const given = (input.given ?? []).filter((target) => target !== "");
  const auto = given.length === 1 && given[0] === AUTO;
  if (given.length > 0 && !auto) {
    if (given.includes(AUTO))
      throw new ScvError("USAGE", "auto chooses the reviewers itself — give auto alone, or name them");
    return { reviewers: checkedTargets(given, "reviewers"), source: "given" };
  }
  const configured = input.config.review_by;
  if (!auto && configured !== undefined && configured !== AUTO) {
    const where = `review_by in ${input.configPath ?? "scv's config"}`;
    return { reviewers: checkedTargets(configured, where), source: "config" };
  }
  return { reviewers: await autoReviewers(input), source: "auto" };
}

async function autoReviewers(input: PickInput): Promise<string[]> {
  const { config, env, author } = input;
  const rows = allAdapters();
  const candidates: ReviewerCandidate[] = await Promise.all(
    rows.map(async (entry) => {
      const installed = locateAgent(entry, config, env) !== undefined;
      return {
        target: entry.name,
        family: modelFamily(entry.family, agentSettings(config, entry.name).model),
        installed,
        // Not installed: its sign-in is not looked at.
        signedIn: installed ? await agentSignedIn(entry, config, env) : "no",
      };
    }),
  );
  const authorRow = author === undefined ? undefined : requireAgent(author.agent);
  const authorFamily =
    authorRow === undefined
      ? undefined
      : modelFamily(authorRow.family, author?.model ?? agentSettings(config, authorRow.name).model);
  const choice = chooseReviewers({
    candidates,
    authorFamily,
    ...(author === undefined ? {} : { author: author.agent }),
  });
  if (choice.reviewers.length > 0) return choice.reviewers.map((candidate) => candidate.target);
  throw new ScvError(
    "USAGE",
    `no reviewer to choose: ${passedOverText(choice.passedOver)} — name reviewers (scv review ${EXAMPLE_AGENTS.join(" ")}, --review-by ${EXAMPLE_AGENTS[0]}), or install and sign in an agent of another model family (scv agents list)`,
  );
}

/** `<agent>: signed out; <agent>: the author; 9 not installed`. */
function passedOverText(
  passed: readonly { readonly target: string; readonly reason: PassedOverReason }[],
): string {
  const missing = passed.filter((each) => each.reason === "not installed").length;
  const said = passed
    .filter((each) => each.reason !== "not installed")
    .map((each) => `${each.target}: ${each.reason}`);
  if (missing > 0) said.push(`${missing} not installed`);
  return said.length === 0 ? "no agent is installed" : said.join("; ");
}
