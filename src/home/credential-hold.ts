// A CLI's own sign-in may remove the working one before it has a new one: one CLI's login deletes
// auth.json as it starts, and then waits for a browser that never comes (no terminal, Ctrl-C, a
// timeout). scv holds the credential files as they were and puts them back when that sign-in does
// not end signed in, also when scv itself is stopped meanwhile. They stay in memory only.

import { dirname, join } from "node:path";
import { cleanUpAtExit } from "../process/lifecycle.js";
import { ensurePrivateDir } from "./agent-home.js";
import { writeAtomicSync } from "./atomic.js";
import { readStateFile, type StateReadOptions } from "./state-file.js";

/** Larger files are not credentials scv knows; they are not held. */
const HELD: StateReadOptions = { maxBytes: 1024 * 1024, followLinks: true };

export interface CredentialHold {
  /** Puts back every held file whose content changed or went; returns their names. */
  restore(): string[];
  /** The new sign-in stands: nothing is put back, also not at exit. */
  release(): void;
}

/** Holds `files` (relative to `home`) as they are now, until `restore` or `release`. */
export function holdCredentials(home: string, files: readonly string[]): CredentialHold {
  const held = new Map<string, Buffer>();
  for (const file of files) {
    // Absent, unreadable or not a regular file (a FIFO is not waited on): nothing to put back.
    const read = readStateFile(join(home, file), HELD);
    if (read.kind === "read") held.set(file, read.bytes);
  }
  const restore = (): string[] => {
    const restored: string[] = [];
    for (const [file, content] of held) {
      const path = join(home, file);
      const now = readStateFile(path, HELD);
      if (now.kind === "read" && now.bytes.equals(content)) continue;
      try {
        // The CLI may have removed the folder too (0700, as scv creates them).
        ensurePrivateDir(dirname(path), home);
        writeAtomicSync(path, content);
        restored.push(file);
      } catch {
        // Nothing more to do than not claim it was put back.
      }
    }
    held.clear();
    return restored;
  };
  const forget = cleanUpAtExit(() => restore());
  return {
    restore: () => {
      forget();
      return restore();
    },
    release: () => {
      forget();
      held.clear();
    },
  };
}
