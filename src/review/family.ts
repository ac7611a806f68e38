// Reviewers by model family, so a model never reviews its own kind's work (`--reviewers auto`): the
// family is the row's (`family` in src/adapters.ts), or for a CLI that runs many makers' models
// (pi, OpenCode, Copilot CLI, Cursor) the one its model's id names. Choosing is a pure function of
// the candidates — the caller says which are installed and signed in, as `fallbackAgents` judges
// them — and the author's family: up to two, each of a family other than the author's and than each
// other's, signed-in ones before those whose sign-in scv cannot check, otherwise in the order given.
//
// API: `modelFamily(rowFamily, model?)`, `chooseReviewers({ candidates, authorFamily, max? })` →
// `ReviewerChoice`. Pure.

/** Model ids to families: the first pattern that matches names it. */
const MODEL_FAMILIES: readonly (readonly [RegExp, string])[] = [
  [/claude|opus|sonnet|haiku|anthropic/i, "claude"],
  [/gpt|codex|openai|(^|\/)o[1-9]/i, "gpt"],
  [/gemini|gemma|google/i, "gemini"],
  [/qwen/i, "qwen"],
  [/grok|xai/i, "grok"],
  [/deepseek/i, "deepseek"],
  [/kimi|moonshot/i, "kimi"],
  [/glm|zhipu|z-ai/i, "glm"],
  [/mistral|devstral|codestral/i, "mistral"],
  [/llama/i, "llama"],
];

/** The family of a turn's models: the row's where it has one, else the one `model` names; undefined
 * when neither tells. Pure. */
export function modelFamily(rowFamily: string | null, model?: string): string | undefined {
  if (rowFamily !== null) return rowFamily;
  if (model === undefined) return undefined;
  return MODEL_FAMILIES.find(([pattern]) => pattern.test(model))?.[1];
}

export interface ReviewerCandidate {
  /** The target as `delegate` takes it (`codex`, `claude:opus`, `gemini@work`). */
  readonly target: string;
  /** `modelFamily` of its row and model; undefined when unknown. */
  readonly family: string | undefined;
  readonly installed: boolean;
  /** As `fallbackAgents` judges it: `maybe` where only a real turn can tell. */
  readonly signedIn: "yes" | "maybe" | "no";
}

export type PassedOverReason =
  | "not installed"
  | "signed out"
  | "the author"
  | "same family as the author"
  | "family unknown"
  | "family already chosen"
  | "enough reviewers";

export interface ReviewerChoice {
  readonly reviewers: readonly ReviewerCandidate[];
  /** Every other candidate and why it was not chosen, in the order given. */
  readonly passedOver: readonly { readonly target: string; readonly reason: PassedOverReason }[];
}

export interface ChoiceInput {
  readonly candidates: readonly ReviewerCandidate[];
  /** The author's family; undefined when unknown (no family is then excluded). */
  readonly authorFamily: string | undefined;
  /** The author's target, never its own reviewer. */
  readonly author?: string;
  /** How many reviewers at most; default 2. */
  readonly max?: number;
}

/** Up to `max` reviewers of families other than the author's and each other's. Pure. */
export function chooseReviewers(input: ChoiceInput): ReviewerChoice {
  const max = input.max ?? 2;
  const reasons = new Map<ReviewerCandidate, PassedOverReason>();
  const eligible: ReviewerCandidate[] = [];
  for (const candidate of input.candidates) {
    const reason: PassedOverReason | undefined = !candidate.installed
      ? "not installed"
      : candidate.signedIn === "no"
        ? "signed out"
        : candidate.target === input.author
          ? "the author"
          : candidate.family === undefined
            ? "family unknown"
            : candidate.family === input.authorFamily
              ? "same family as the author"
              : undefined;
    if (reason === undefined) eligible.push(candidate);
    else reasons.set(candidate, reason);
  }
  const ordered = [
    ...eligible.filter((candidate) => candidate.signedIn === "yes"),
    ...eligible.filter((candidate) => candidate.signedIn === "maybe"),
  ];
  const reviewers: ReviewerCandidate[] = [];
  const families = new Set<string>();
  for (const candidate of ordered) {
    if (families.has(candidate.family ?? "")) reasons.set(candidate, "family already chosen");
    else if (reviewers.length >= max) reasons.set(candidate, "enough reviewers");
    else {
      reviewers.push(candidate);
      families.add(candidate.family ?? "");
    }
  }
  const passedOver = input.candidates.flatMap((candidate) => {
    const reason = reasons.get(candidate);
    return reason === undefined ? [] : [{ target: candidate.target, reason }];
  });
  return { reviewers, passedOver };
}
