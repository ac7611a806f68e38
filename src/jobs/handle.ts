// A turn handle as a user or a calling agent writes it, checked before it names a file.

import { ScvError } from "../errors.js";
import { HANDLE_PATTERN } from "../home/conversations.js";

export function checkHandle(handle: string): void {
  if (!HANDLE_PATTERN.test(handle)) {
    throw new ScvError("USAGE", `'${handle}' is not a turn handle (like codex-k3f9x2) — scv ps lists them`);
  }
}
