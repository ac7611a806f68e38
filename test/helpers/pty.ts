// A pseudo-terminal for one scv run (pty-run.py): whether this machine can make one, and the script.

import { execFileSync } from "node:child_process";
import { join } from "node:path";

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
