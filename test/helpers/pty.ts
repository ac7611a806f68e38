// A pseudo-terminal for tests that need scv on one (pty-run.py: Python's pty module), and whether this
// machine has it.

import { execFileSync } from "node:child_process";
import { join } from "node:path";

export const PTY_RUN = join(import.meta.dirname, "pty-run.py");

export const hasPython = (() => {
  try {
    execFileSync("python3", ["-c", "import pty"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
