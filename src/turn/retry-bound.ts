// `[agents.<name>] max_retries`: a bound on the CLI's own retries of a failed model request,
// translated into the CLI's setting where that is one variable (the row's `retries`). A CLI whose
// bound lives only in its own config file is refused with where to set it, rather than ignored.

import type { AdapterDescriptor } from "../adapters.js";
import { ScvError } from "../errors.js";

/** The variables that bound `entry`'s retries at `maxRetries`; throws where no variable can. */
export function retryEnvironment(entry: AdapterDescriptor, maxRetries: number): Record<string, string> {
  const bound = entry.retries;
  switch (bound.kind) {
    case "env":
      return { [bound.variable]: String(maxRetries) };
    case "config":
      throw new ScvError(
        "BAD_CONFIG",
        `${entry.name} reads its retry limit only from its own config — set ${bound.setting} in ${bound.file} of its agent home ($SCV_HOME/agents/${entry.name})`,
      );
    case "none":
      throw new ScvError("BAD_CONFIG", `${entry.name} has no retry setting (${bound.note}) — omit it`);
    default:
      return unreachable(bound);
  }
}

function unreachable(value: never): never {
  throw new Error(`unknown retry bound ${JSON.stringify(value)}`);
}
