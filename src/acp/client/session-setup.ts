// Setting up an ACP session for a turn: the permission mode its policy needs, and the model and
// effort it was asked for, each checked against what the session says it offers (`modes`, `models`,
// `configOptions` of the `session/new` or `session/load` answer) and then against what it reports
// back. A value the session does not offer is refused with what it does offer: some servers accept
// anything (lab: one answers `session/set_model` to `no-such-model` with success).

import type { AcpFullPermission } from "../../adapters.js";
import { ScvError } from "../../errors.js";
import type { Policy } from "../../transport/env.js";
import type { AcpAgent, SessionAnswer } from "./agent.js";
import { record } from "./waiting.js";

interface Choice {
  readonly value: string;
  readonly name: string;
}

interface ConfigOption {
  readonly id: string;
  readonly category: string;
  readonly current: string | undefined;
  readonly choices: readonly Choice[];
}

/** What a session says about itself. */
export interface SessionState {
  /** The current mode id (`modes.currentModeId`, else the `mode` option's value). */
  mode: string | undefined;
  readonly modes: readonly string[];
  readonly currentModel: string | undefined;
  readonly models: readonly Choice[];
  options: readonly ConfigOption[];
}

export function readSessionState(answer: Readonly<Record<string, unknown>>): SessionState {
  const modes = record(answer.modes);
  const models = record(answer.models);
  const options = readOptions(answer.configOptions);
  const modeOption = options.find((option) => option.category === "mode");
  return {
    mode: text(modes.currentModeId) ?? modeOption?.current,
    modes: list(modes.availableModes)
      .map((mode) => text(record(mode).id))
      .filter((id): id is string => id !== undefined),
    currentModel: text(models.currentModelId),
    models: list(models.availableModels).flatMap((model) => {
      const fields = record(model);
      const id = text(fields.modelId);
      return id === undefined ? [] : [{ value: id, name: text(fields.name) ?? id }];
    }),
    options,
  };
}

/** The model and effort a session answer reports as current: what a conversation runs with when its
 * turns give none. */
export function currentChoices(answer: Readonly<Record<string, unknown>>): {
  model: string | undefined;
  effort: string | undefined;
} {
  const state = readSessionState(answer);
  return {
    model: state.options.find((option) => option.category === "model")?.current ?? state.currentModel,
    effort: state.options.find((option) => option.category === "thought_level")?.current,
  };
}

/** Of a session answer, what `refuseUnoffered` reads (the models, and the model and effort options
 * with their values), in the answer's own shape: what is kept of it between turns. */
export function offeredChoices(answer: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const state = readSessionState(answer);
  const choices = (each: readonly Choice[]) => each.map(({ value, name }) => ({ value, name }));
  return {
    models: {
      ...(state.currentModel === undefined ? {} : { currentModelId: state.currentModel }),
      availableModels: state.models.map(({ value, name }) => ({ modelId: value, name })),
    },
    configOptions: state.options
      .filter((option) => option.category === "model" || option.category === "thought_level")
      .map((option) => ({
        id: option.id,
        category: option.category,
        ...(option.current === undefined ? {} : { currentValue: option.current }),
        options: choices(option.choices),
      })),
  };
}

/** A `configOptions` list: selects, their values flattened out of groups. */
function readOptions(value: unknown): ConfigOption[] {
  return list(value).flatMap((option) => {
    const fields = record(option);
    const id = text(fields.id);
    if (id === undefined) return [];
    const choices = list(fields.options).flatMap((choice) => {
      const inner = record(choice);
      const group = Array.isArray(inner.options) ? inner.options : [choice];
      return group.flatMap((each) => {
        const entry = record(each);
        const value = text(entry.value);
        return value === undefined ? [] : [{ value, name: text(entry.name) ?? value }];
      });
    });
    return [{ id, category: text(fields.category) ?? "", current: text(fields.currentValue), choices }];
  });
}

export interface SessionSetup {
  readonly agent: AcpAgent;
  readonly session: SessionAnswer;
  readonly product: string;
  readonly name: string;
  readonly policy: Policy;
  readonly full: AcpFullPermission;
  readonly model?: string;
  readonly effort?: string;
}

/** Sets the session up; returns the mode it then runs in. Throws `ScvError` for a value it does not
 * offer or a mode that contradicts the policy; `AcpAgentError` for a request it refused. */
export async function setUpSession(setup: SessionSetup): Promise<string | undefined> {
  const state = readSessionState(setup.session.raw);
  const sessionId = setup.session.sessionId;
  if (setup.model !== undefined) {
    const model = chosenModel(setup.product, state, setup.model);
    if (model.kind === "option") await setOption(setup, state, model.id, model.value);
    else if (model.value !== state.currentModel)
      await setup.agent.request("session/set_model", { sessionId, modelId: model.value });
  }
  if (setup.effort !== undefined) {
    const effort = chosenEffort(setup.product, state, setup.effort);
    await setOption(setup, state, effort.id, effort.value);
  }
  const { full } = setup;
  if (setup.policy === "auto") {
    if (full.kind === "mode") {
      if (!state.modes.includes(full.mode) && state.mode !== full.mode)
        throw modeRefused(
          setup,
          `offers no mode ${full.mode} (it offers: ${state.modes.join(", ") || "none"})`,
        );
      if (state.mode !== full.mode) {
        await setup.agent.request("session/set_mode", { sessionId, modeId: full.mode });
        state.mode = full.mode;
      }
    } else if (full.kind === "option") {
      const option = state.options.find((each) => each.id === full.option);
      if (option === undefined) throw modeRefused(setup, `offers no ${full.option} option`);
      const set = await setOption(setup, state, option.id, full.value);
      if (set !== undefined && set !== full.value)
        throw modeRefused(setup, `reports ${full.option} = ${set} after it was set to ${full.value}`);
    }
  } else if (full.kind === "mode" && state.mode === full.mode) {
    // Its own settings start the session in the mode that grants everything.
    throw new ScvError(
      "AGENT_FAILED",
      `${setup.name}'s session runs in ${full.mode} (its own settings choose it), which --policy default forbids — remove that setting from its home, or use --policy auto`,
    );
  }
  return state.mode;
}

/** Sets a config option; returns its value as the answer reports it (when it does). */
async function setOption(
  setup: SessionSetup,
  state: SessionState,
  configId: string,
  value: string,
): Promise<string | undefined> {
  const current = state.options.find((option) => option.id === configId)?.current;
  if (current === value) return value;
  const answer = record(
    await setup.agent.request("session/set_config_option", {
      sessionId: setup.session.sessionId,
      configId,
      value,
    }),
  );
  if (!Array.isArray(answer.configOptions)) return undefined;
  state.options = readOptions(answer.configOptions);
  const mode = state.options.find((option) => option.category === "mode")?.current;
  if (mode !== undefined) state.mode = mode;
  return state.options.find((option) => option.id === configId)?.current;
}

/** Throws the refusal `setUpSession` would give for a model or effort the session answer `answer`
 * does not offer, asking the agent nothing (a model set at launch is not checked here). */
export function refuseUnoffered(
  answer: Readonly<Record<string, unknown>>,
  product: string,
  wanted: { readonly model?: string; readonly effort?: string },
): void {
  const state = readSessionState(answer);
  if (wanted.model !== undefined) chosenModel(product, state, wanted.model);
  if (wanted.effort !== undefined) chosenEffort(product, state, wanted.effort);
}

/** The model `wanted` names: a value of the session's model option, else an id of its `models`. */
function chosenModel(
  product: string,
  state: SessionState,
  wanted: string,
): { kind: "option"; id: string; value: string } | { kind: "model"; value: string } {
  const option = state.options.find((each) => each.category === "model");
  if (option !== undefined)
    return {
      kind: "option",
      id: option.id,
      value: pick(product, "model", wanted, option.choices, option.current),
    };
  if (state.models.length > 0 || state.currentModel !== undefined)
    return { kind: "model", value: pick(product, "model", wanted, state.models, state.currentModel) };
  throw notOffered(product, "model", wanted, []);
}

/** The effort `wanted` names among the values of the session's thought-level option. */
function chosenEffort(product: string, state: SessionState, wanted: string): { id: string; value: string } {
  const option = state.options.find((each) => each.category === "thought_level");
  if (option === undefined) throw notOffered(product, "effort", wanted, []);
  return { id: option.id, value: pick(product, "effort", wanted, option.choices, option.current) };
}

/** The offered value `wanted` names: its id, else the one offer of that display name (lab: one's
 * `$runtime|openai|mock-model(openai)` is named `mock-model`). */
function pick(
  product: string,
  what: "model" | "effort",
  wanted: string,
  offers: readonly Choice[],
  current: string | undefined,
): string {
  if (wanted === current || offers.some((offer) => offer.value === wanted)) return wanted;
  const named = offers.filter((offer) => offer.name === wanted);
  const only = named[0];
  if (only !== undefined && named.length === 1) return only.value;
  throw notOffered(product, what, wanted, offers);
}

function notOffered(product: string, what: string, wanted: string, offers: readonly Choice[]): ScvError {
  const listed = offers.map((offer) => offer.value);
  const shown = listed.length > 12 ? [...listed.slice(0, 12), "…"] : listed;
  return new ScvError(
    "USAGE",
    listed.length === 0
      ? `${product} takes no ${what} over ACP — omit ${what === "model" ? "the model" : "--effort"}`
      : `${product} does not offer the ${what} ${wanted} over ACP — pick one it offers: ${shown.join(", ")}`,
  );
}

function modeRefused(setup: SessionSetup, why: string): ScvError {
  return new ScvError(
    "AGENT_FAILED",
    `${setup.name}'s session ${why}, so --policy auto cannot be honoured — use --policy default, or --transport process`,
  );
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}
