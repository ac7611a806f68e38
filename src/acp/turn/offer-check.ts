// The models and efforts an ACP server offered, checked before a server is started: a CLI's start-up
// and `session/new` take seconds (lab: up to 13 s), and a first turn asking for a model the server
// does not offer is a usage error the user should have at once. What the server offered is kept
// from every session it made or loaded (home/acp-offers.ts), under a key naming what could change
// it: the launch (executable, arguments, folder, policy, the variables scv set: acp/session-host/start.ts), the
// executable's file, and the agent home's own settings and credential files. A value refused from
// what was kept and asked for again is put to the server itself: a list that changed on the
// provider's side never refuses the same value twice.

import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { join } from "node:path";
import { ScvError } from "../../errors.js";
import { keepOffers, noteRefused, readOffers } from "../../home/acp-offers.js";
import type { Env } from "../../home/paths.js";
import type { TurnResult } from "../../result.js";
import { isoTimestamp } from "../../timestamp.js";
import { failedResult } from "../../turn/outcome.js";
import type { TurnPlan } from "../../turn/turn-types.js";
import { offeredChoices, refuseUnoffered } from "../client/session-setup.js";
import { launchHash, type SessionHostLaunch } from "../session-host/start.js";

export interface OffersCheck {
  /** The refusal, as the server's would read, when what it offered before lacks the turn's model or
   * effort; undefined when it offered them, or nothing is kept. */
  refusal(started: number): TurnResult | undefined;
  /** Keeps what a session answer offers. */
  keep(answer: Readonly<Record<string, unknown>>): void;
}

export function offersCheck(plan: TurnPlan, launch: SessionHostLaunch, env: Env): OffersCheck {
  const key = offersKey(plan, launch);
  const acp = plan.entry.acp;
  // A model given at launch (the row's modelArgs) is the server's own to refuse.
  const model = acp?.modelArgs === undefined ? plan.model : undefined;
  return {
    refusal(started) {
      const wanted = [model, plan.effort].filter((value): value is string => value !== undefined);
      if (wanted.length === 0) return undefined;
      const kept = readOffers(key, env);
      // Asked for again after a refusal from what was kept: the server itself is asked.
      if (kept === undefined || wanted.some((value) => kept.refused?.includes(value))) return undefined;
      try {
        refuseUnoffered(kept.answer, plan.entry.product, {
          ...(model === undefined ? {} : { model }),
          ...(plan.effort === undefined ? {} : { effort: plan.effort }),
        });
        return undefined;
      } catch (error) {
        if (!(error instanceof ScvError)) throw error;
        noteRefused(key, wanted, env);
        const result = failedResult(error, plan.entry.name, started);
        return {
          ...result,
          notes: [
            `told from what ${plan.entry.product}'s ACP server offered before, without starting it — ask for it again to have the server itself asked`,
          ],
        };
      }
    },
    // Under the files as they are once the server answered: a CLI may write its settings as it
    // starts (lab: one does, the first time).
    keep(answer) {
      keepOffers(offersKey(plan, launch), offeredChoices(answer), env, isoTimestamp());
    },
  };
}

function offersKey(plan: TurnPlan, launch: SessionHostLaunch): string {
  const { entry, home } = plan;
  const files = [entry.ownConfig.file, entry.acp?.homeSettings?.file, ...entry.credentialFiles].flatMap(
    (file) => (file === undefined ? [] : [join(home, file)]),
  );
  return createHash("sha256")
    .update(JSON.stringify([launchHash(launch), [plan.executable, ...files].map(fileState)]))
    .digest("hex");
}

/** A file as it is now: its modification time and size, or null when it is not there. */
function fileState(path: string): [number, number] | null {
  try {
    const stat = statSync(path);
    return [stat.mtimeMs, stat.size];
  } catch {
    return null;
  }
}
