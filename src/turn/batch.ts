// Planning several turns at once (a fan-out, background turns): every turn is planned before any
// runs, so a typo refuses them all and each other failure is that turn's result.

import { EXIT, ScvError } from "../errors.js";
import type { TurnResult } from "../result.js";
import { failedResult } from "./outcome.js";
import { planTurn } from "./plan.js";
import type { TurnContext, TurnPlan, TurnRequest } from "./turn-types.js";

/** A turn as planned: ready to run, or already failed (not installed, a bad model) without running. */
export type PlannedTurn =
  | {
      readonly kind: "ready";
      readonly agent: string;
      readonly plan: TurnPlan;
      /** The request with the plan's handle, so running it plans the same turn. */
      readonly request: TurnRequest;
    }
  | { readonly kind: "failed"; readonly agent: string; readonly result: TurnResult };

/** Plans every turn before any runs. A usage error (an unknown agent, a bad flag, delegation too
 * deep) refuses them all, as a typo should; other failures are that turn's result. Handles are
 * distinct within the batch. */
export function planTurns(requests: readonly TurnRequest[], context: TurnContext): PlannedTurn[] {
  const handles = new Set<string>();
  return requests.map((request) => {
    const agent = request.agent ?? "";
    try {
      let plan = planTurn(request, context);
      // Two minted handles alike: one chance in a billion per pair, but then one record would go.
      while (handles.has(plan.handle) && plan.record === undefined) plan = planTurn(request, context);
      handles.add(plan.handle);
      const planned = plan.record === undefined ? { ...request, handle: plan.handle } : request;
      return { kind: "ready", agent: plan.entry.name, plan, request: planned };
    } catch (error) {
      if (!(error instanceof ScvError) || error.exitCode === EXIT.usage) throw error;
      return { kind: "failed", agent, result: failedResult(error, agent) };
    }
  });
}
