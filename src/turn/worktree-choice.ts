// What a command line (or an MCP call) asks of worktrees, and whether any turn may run in one: kept
// apart from turn/worktree.ts, which loads git's plumbing (and node:crypto) only for a turn that
// does.

import type { Config } from "../home/config.js";

/** What the command line (or an MCP call) asked of worktrees, for every turn it starts. */
export interface WorktreeChoice {
  /** `--worktree` / `--no-worktree`; absent, a first turn follows the config's `worktree`. */
  readonly worktree?: boolean;
  /** `--base <ref>` (default `HEAD`). */
  readonly base?: string;
  /** `--with-changes`: the user's uncommitted changes carried in. */
  readonly withChanges?: boolean;
  /** `--setup <command>`; "" (`--no-setup`) for none over the config's `worktree_setup`. */
  readonly setup?: string;
  /** Whether `--check` was given: it runs in a worktree. */
  readonly check?: boolean;
}

/** Whether any turn may run in a new worktree: the choice or the config says so somewhere. Pure. */
export function mayWantWorktrees(choice: WorktreeChoice, config: Config): boolean {
  // An option that needs a worktree is refused where no turn has one: that needs a look too.
  if (worktreeOnly(choice) !== undefined) return true;
  if (choice.worktree !== undefined) return choice.worktree;
  return (
    config.defaults?.worktree === true ||
    Object.values(config.agents ?? {}).some((settings) => settings.worktree === true)
  );
}

/** The first option given that needs a worktree (`--base`, …), for the refusal. Pure. */
export function worktreeOnly(choice: WorktreeChoice): string | undefined {
  if (choice.base !== undefined) return "--base";
  if (choice.withChanges) return "--with-changes";
  if (choice.setup !== undefined && choice.setup !== "") return "--setup";
  if (choice.check) return "--check";
  return undefined;
}
