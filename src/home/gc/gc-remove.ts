// Removing what gc planned. Every path is re-checked just before it goes (still the same kind of
// entry, same mtime, its folder still its own real path), so a CLI writing meanwhile or a symlink
// swapped in is left alone, and the report is built from what was really removed.

import { realpathSync, rmdirSync, unlinkSync } from "node:fs";
import { dirname, sep } from "node:path";
import { ScvError } from "../../errors.js";
import { agentHomes } from "../account-homes.js";
import { conversationsDir, lockConversation } from "../conversations.js";
import type { Env } from "../paths.js";
import { turnsDir } from "../turn-files.js";
import type { AgentGcResult, GcItem, GcKind, GcNote, GcPlan } from "./items.js";
import { errorCode, safeLstat } from "./scan.js";

export type Outcome =
  | { kind: "removed" }
  | { kind: "kept"; reason: string }
  | { kind: "failed"; reason: string };

/** The calls that remove; tests pass failing ones to see how a failure is reported. */
export interface Remover {
  readonly unlink: (path: string) => void;
  readonly rmdir: (path: string) => void;
}

export const FS_REMOVER: Remover = { unlink: unlinkSync, rmdir: rmdirSync };

/** The real paths of `paths` that exist: the only folders gc may remove anything below. */
export function realRoots(...paths: string[]): string[] {
  return paths.flatMap((path) => {
    try {
      return [realpathSync(path)];
    } catch {
      return [];
    }
  });
}

/** Removes one planned path if it is still what the plan saw and really lies below one of `roots`. */
export function removeChecked(item: GcItem, roots: readonly string[], remover: Remover): Outcome {
  const stats = safeLstat(item.path);
  if (stats === undefined) return { kind: "kept", reason: "already gone" };
  const folder = item.kind === "lock" || item.kind === "folder";
  if (folder ? !stats.isDirectory() : !stats.isFile()) {
    return { kind: "kept", reason: `no longer a plain ${folder ? "folder" : "file"}` };
  }
  // A folder's mtime moves as gc empties it; files and lock folders must be as planned.
  if (item.kind !== "folder" && (stats.mtimeMs !== item.mtimeMs || (!folder && stats.size !== item.bytes))) {
    return { kind: "kept", reason: "written since gc looked" };
  }
  const parent = dirname(item.path);
  let realParent: string;
  try {
    realParent = realpathSync(parent);
  } catch {
    return { kind: "kept", reason: "its folder is gone" };
  }
  if (realParent !== parent) return { kind: "kept", reason: "its folder is now reached through a symlink" };
  if (!roots.some((root) => realParent === root || realParent.startsWith(`${root}${sep}`))) {
    return { kind: "kept", reason: "outside the agent home and scv's conversations" };
  }
  try {
    if (folder) remover.rmdir(item.path);
    else remover.unlink(item.path);
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT") return { kind: "kept", reason: "already gone" };
    if (code === "ENOTEMPTY" || code === "EEXIST") return { kind: "kept", reason: "not empty" };
    return { kind: "failed", reason: code };
  }
  return { kind: "removed" };
}

/** Removes what `plan` lists, re-checking each path; an old record and its session's transcripts go
 * while gc holds that conversation's lock, so a turn starting on it meanwhile keeps both. */
export async function applyGc(
  plan: GcPlan,
  env: Env,
  remover: Remover = FS_REMOVER,
): Promise<AgentGcResult[]> {
  const results: AgentGcResult[] = [];
  for (const agent of plan.agents) {
    const removed: GcItem[] = [];
    const kept: GcNote[] = [...agent.notes];
    const failed: GcNote[] = [];
    const roots = realRoots(...agentHomes(agent.agent, env), conversationsDir(env), turnsDir(env));
    const run = (item: GcItem) => {
      const outcome = removeChecked(item, roots, remover);
      if (outcome.kind === "removed") removed.push(item);
      else (outcome.kind === "kept" ? kept : failed).push({ path: item.path, reason: outcome.reason });
    };
    const ofKind = (...kinds: GcKind[]) => agent.items.filter((item) => kinds.includes(item.kind));

    // Crashed runs' leftovers first, so a stale lock does not make its conversation look busy.
    for (const item of ofKind("lock", "temp")) run(item);

    const busy = new Map<string, string>();
    const releases: (() => Promise<void>)[] = [];
    try {
      for (const handle of new Set(
        agent.items.flatMap((item) => (item.handle === undefined ? [] : [item.handle])),
      )) {
        try {
          releases.push(await lockConversation(handle, env, 0));
        } catch (error) {
          busy.set(
            handle,
            error instanceof ScvError && error.code === "CONVERSATION_BUSY"
              ? `a turn of ${handle} is running`
              : `could not lock ${handle} (${errorCode(error)})`,
          );
        }
      }
      for (const item of ofKind("transcript", "record", "result")) {
        const reason = item.handle === undefined ? undefined : busy.get(item.handle);
        if (reason === undefined) run(item);
        else kept.push({ path: item.path, reason });
      }
    } finally {
      for (const release of releases) await release().catch(() => undefined);
    }
    for (const item of ofKind("folder")) run(item);
    results.push({ agent: agent.agent, removed, kept, failed });
  }
  return results;
}
