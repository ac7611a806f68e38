// What a user or a calling agent names a turn by, checked before it names a file: a job
// (`<agent>-k3f9x2.a1b2c3d4`, one turn) or a conversation's handle (`<agent>-k3f9x2`, its jobs).

import { EXAMPLE_AGENTS } from "../adapters.js";
import { ScvError } from "../errors.js";
import { HANDLE_PATTERN } from "../home/conversations.js";
import { jobHandle } from "../home/turn-files.js";

export type TurnRef =
  | { readonly kind: "job"; readonly job: string; readonly handle: string }
  | { readonly kind: "handle"; readonly handle: string };

export function parseTurnRef(text: string): TurnRef {
  const handle = jobHandle(text);
  if (handle !== undefined) return { kind: "job", job: text, handle };
  if (HANDLE_PATTERN.test(text)) return { kind: "handle", handle: text };
  throw new ScvError(
    "USAGE",
    `'${text}' is not a job or a conversation handle (like ${EXAMPLE_AGENTS[0]}-k3f9x2.a1b2c3d4 or ${EXAMPLE_AGENTS[0]}-k3f9x2) — scv ps lists them`,
  );
}
