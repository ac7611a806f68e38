// `scv agents gc`'s part in worktrees: an old conversation (one gc would remove) that ran in a
// worktree takes its worktree and branch with it — only when the branch holds nothing that is
// neither merged nor applied, unless `--force`; then `git worktree prune`. One whose branch holds
// such work stays, record and transcripts too (its conversation is all that leads to it), and so
// does one a turn runs in.

import { ScvError } from "../errors.js";
import { readConversation } from "../home/conversations.js";
import type { GcPlan } from "../home/gc/items.js";
import type { Env } from "../home/paths.js";
import { turnRunning } from "../turn/worktree.js";
import { holdsUnmergedWork, removeWorktree } from "../worktrees/remove-worktree.js";

export interface GcWorktree {
  readonly handle: string;
  readonly dir: string;
  readonly branch: string;
  /** `removed` / `kept`; in a dry run, what would be done. */
  readonly outcome: "removed" | "kept";
  /** Why it was kept. */
  readonly reason?: string;
}

const UNMERGED = "its branch holds work neither merged nor applied";

/** Handles the old records' worktrees; returns what became of each. */
export async function gcWorktrees(
  plan: GcPlan,
  env: Env,
  options: { readonly dryRun?: boolean; readonly force?: boolean },
): Promise<GcWorktree[]> {
  const handles = plan.agents.flatMap((agent) =>
    agent.items.flatMap((item) => (item.kind === "record" && item.handle !== undefined ? [item.handle] : [])),
  );
  const done: GcWorktree[] = [];
  for (const handle of handles) {
    let worktree: ReturnType<typeof readConversation>["worktree"];
    try {
      worktree = readConversation(handle, env).worktree;
    } catch {
      continue;
    }
    if (worktree === undefined) continue;
    const where = { handle, dir: worktree.dir, branch: worktree.branch };
    const applied = worktree.applied === undefined ? {} : { applied: worktree.applied };
    if (turnRunning(handle, env)) {
      done.push({ ...where, outcome: "kept", reason: "a turn of it is running" });
      continue;
    }
    try {
      if (options.dryRun) {
        const unmerged = !options.force && (await holdsUnmergedWork(worktree, { env, ...applied }));
        done.push(
          unmerged ? { ...where, outcome: "kept", reason: UNMERGED } : { ...where, outcome: "removed" },
        );
        continue;
      }
      const outcome = await removeWorktree(worktree, {
        env,
        onlyIfMerged: true,
        ...(options.force ? { force: true } : {}),
        ...applied,
        isRunning: () => turnRunning(handle, env),
      });
      done.push(
        outcome.kind === "kept"
          ? { ...where, outcome: "kept", reason: UNMERGED }
          : { ...where, outcome: "removed" },
      );
    } catch (error) {
      if (!(error instanceof ScvError)) throw error;
      done.push({ ...where, outcome: "kept", reason: error.message });
    }
  }
  return done;
}

/** The plan without anything of the conversations whose worktree stays. Pure. */
export function withoutKept(plan: GcPlan, worktrees: readonly GcWorktree[]): GcPlan {
  const kept = new Set(worktrees.filter((each) => each.outcome === "kept").map((each) => each.handle));
  if (kept.size === 0) return plan;
  return {
    ...plan,
    agents: plan.agents.map((agent) => ({
      ...agent,
      items: agent.items.filter((item) => item.handle === undefined || !kept.has(item.handle)),
    })),
  };
}

/** One line per worktree, for stderr. Pure. */
export function worktreeLines(worktrees: readonly GcWorktree[], dryRun: boolean): string {
  return worktrees
    .map((each) => {
      if (each.outcome === "removed")
        return `scv: ${dryRun ? "would remove" : "removed"} worktree ${each.dir} and branch ${each.branch}\n`;
      const hint = each.reason === UNMERGED ? ` — scv apply ${each.handle}, or agents gc --force` : "";
      return `scv: kept ${each.handle}, its worktree ${each.dir} and branch ${each.branch}: ${each.reason}${hint}\n`;
    })
    .join("");
}
