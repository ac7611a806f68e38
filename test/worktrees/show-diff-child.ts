// Run on a pseudo-terminal by diff.test.ts: shows a worktree's diff as `scv diff` will, so the test
// sees what the user's terminal gets. argv: the worktree record as JSON.

import { showWorktreeDiff } from "../../src/worktrees/diffstat.js";
import { worktreeSchema } from "../../src/worktrees/record.js";

const worktree = worktreeSchema().parse(JSON.parse(process.argv[2] ?? "{}"));
void showWorktreeDiff(worktree, process.env).then((code) => {
  process.exitCode = code;
});
