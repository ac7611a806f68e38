// A pseudo-terminal for one scv run (pty-run.py): whether this machine can make one, the script, and
// a run of the built scv on one.

import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { execa } from "execa";
import { SCV, type World } from "./scv.js";

/** pty-run.py: runs a command on a pseudo-terminal, types keys once a text shows (its header). */
export const PTY_RUN = join(import.meta.dirname, "pty-run.py");

/** Python 3 with its pty module: pty-run.py can run. */
export const hasPython = (() => {
  try {
    execFileSync("python3", ["-c", "import pty"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

/** `scv <args>` in the world on a pseudo-terminal (pty-run.py): once `waitFor` has shown, each
 * `<seconds>:<keys>` of `steps` is typed. What the terminal showed, and scv's exit code. */
export async function scvOnTerminal(
  world: World,
  args: readonly string[],
  options: { waitFor?: string; steps?: readonly string[]; env?: Record<string, string> } = {},
): Promise<{ output: string; code: number }> {
  const run = await execa(
    "python3",
    [PTY_RUN, options.waitFor ?? "", ...(options.steps ?? []), "--", process.execPath, SCV, ...args],
    { cwd: world.project, env: { ...world.env, ...options.env }, extendEnv: false },
  );
  return JSON.parse(run.stdout) as { output: string; code: number };
}
