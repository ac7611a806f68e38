// The quota windows a CLI last reported for an account (a stream's rate-limit event: which
// window, its status, how much of it is used, when it resets), one small JSON file per account in
// `$SCV_HOME/quota/<agent>@<account>.json`, written atomically after a turn that reported one and
// shown by `scv agents status`. Only CLIs whose captured output carries such a report feed it.

import { join } from "node:path";
import * as z from "zod/mini";
import { lazy } from "../lazy.js";
import type { QuotaWindow } from "../parsers/event-types.js";
import { isoTimestamp } from "../timestamp.js";
import { ensureScvDir } from "./agent-home.js";
import { writeAtomicSync } from "./atomic.js";
import { readJsonFile } from "./json-file.js";
import { type Env, scvHome } from "./paths.js";

export interface QuotaSnapshot {
  /** When the turn that reported these ended (UTC ISO 8601). */
  readonly seenAt: string;
  readonly windows: readonly QuotaWindow[];
}

const snapshotSchema = lazy(() =>
  z.object({
    seenAt: z.string(),
    windows: z.array(
      z.object({
        window: z.string(),
        status: z.string(),
        utilization: z.optional(z.number()),
        resetsAt: z.optional(z.string()),
      }),
    ),
  }),
);

function quotaPath(agent: string, account: string, env: Env): string {
  return join(scvHome(env), "quota", `${agent}@${account}.json`);
}

/** The last snapshot kept for the account; undefined when none was (or it cannot be read). */
export function lastQuota(agent: string, account: string, env: Env): QuotaSnapshot | undefined {
  return readJsonFile(quotaPath(agent, account, env), snapshotSchema());
}

/** Keeps what a turn reported, each window over the one kept before; best effort (a snapshot
 * that cannot be written changes nothing but what status shows). */
export function keepQuota(agent: string, account: string, windows: readonly QuotaWindow[], env: Env): void {
  if (windows.length === 0) return;
  const byWindow = new Map(
    (lastQuota(agent, account, env)?.windows ?? []).map((each) => [each.window, each]),
  );
  for (const each of windows) byWindow.set(each.window, each);
  const snapshot: QuotaSnapshot = { seenAt: isoTimestamp(), windows: [...byWindow.values()] };
  try {
    ensureScvDir(env, "quota");
    writeAtomicSync(quotaPath(agent, account, env), `${JSON.stringify(snapshot)}\n`, { fsync: false });
  } catch {
    // Status shows the older snapshot, or none.
  }
}

/** `five_hour 100% used, rejected, resets 2027-02-03T…`: the windows, one phrase each. */
export function quotaText(snapshot: QuotaSnapshot): string {
  return snapshot.windows
    .map((each) => {
      const used = each.utilization === undefined ? "" : ` ${Math.round(each.utilization * 100)}% used,`;
      const reset = each.resetsAt === undefined ? "" : `, resets ${each.resetsAt}`;
      return `${each.window}${used} ${each.status}${reset}`;
    })
    .join("; ");
}
