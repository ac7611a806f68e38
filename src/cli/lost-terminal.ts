// A terminal that closed under scv (its window shut, an ssh session dropped) must not crash it on the
// way out. At exit Node restores the settings of fds 0-2 that were terminals when it started, and
// on Node 20 a restore that fails with EIO — the terminal is gone — is an assertion: exit 134 with a
// native stack, after scv had stopped its agents and chosen its exit code. So at exit each of them
// that is a terminal no longer there is first replaced by /dev/null, which Node then leaves alone.

import { closeSync, fstatSync, openSync } from "node:fs";
import { isatty } from "node:tty";

/** For a process 'exit' listener: swaps every hung-up terminal among fds 0-2 for /dev/null. */
export function releaseLostTerminal(): void {
  for (const fd of [0, 1, 2]) {
    try {
      // A terminal still there answers isatty; a hung-up one is a character device that does not.
      if (!fstatSync(fd).isCharacterDevice() || isatty(fd)) continue;
      closeSync(fd);
      // open(2) takes the lowest free descriptor, fd itself: a late write to it goes nowhere.
      const opened = openSync("/dev/null", "r+");
      if (opened !== fd) closeSync(opened);
    } catch {
      // A descriptor that cannot be checked or swapped is left as it is.
    }
  }
}
