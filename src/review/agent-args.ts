// What a reviewer's turn adds to its CLI's command line, from its row's `review` (src/adapters.ts):
// the arguments that keep it read-only, given instead of the policy's full-permission ones, and the
// structured-output option holding it to the findings' schema — a file it names (`--output-schema
// {file}`, `--json-schema @{file}`) or the schema inline (`--json-schema {schema}`), as its row's
// `review` says. A first turn and its repair turn take the same arguments.
//
// API: `reviewTurnArgs(row, schemaFile)` → `ReviewTurnArgs`. Pure.

import { type AdapterDescriptor, unreachable } from "../adapters.js";
import { findingsJsonSchema } from "./schema.js";

export interface ReviewTurnArgs {
  /** Added where the policy's full-permission arguments would go: read-only first, then the
   * schema's. */
  readonly args: readonly string[];
  /** Where the row's option takes a file: write `content` at `path` (the `schemaFile` given) before
   * the turn, and remove it after. */
  readonly file?: { readonly path: string; readonly content: string };
}

function fill(args: readonly string[], placeholder: string, value: string): string[] {
  return args.map((arg) => arg.replaceAll(placeholder, value));
}

/** The review arguments of `row`; `schemaFile` is where the schema goes when its CLI reads a file
 * (the turn's private TMPDIR). Pure. */
export function reviewTurnArgs(row: Pick<AdapterDescriptor, "review">, schemaFile: string): ReviewTurnArgs {
  const { readOnlyArgs, schema } = row.review;
  const json = JSON.stringify(findingsJsonSchema());
  switch (schema.kind) {
    case "file":
      return {
        args: [...readOnlyArgs, ...fill(schema.args, "{file}", schemaFile)],
        file: { path: schemaFile, content: `${json}\n` },
      };
    case "inline":
      return { args: [...readOnlyArgs, ...fill(schema.args, "{schema}", json)] };
    case "prompt":
      return { args: [...readOnlyArgs] };
    default:
      return unreachable(schema);
  }
}
