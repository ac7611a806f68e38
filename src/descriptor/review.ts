// What a review turn (`scv review`, src/review/) needs of a CLI: a reviewer reads the tree and
// changes nothing, and its reply is held to the findings' JSON Schema where the CLI can be.

import * as z from "zod/mini";
import { args, argsWith } from "./fields.js";

/** How a reviewer's reply is held to the findings' JSON Schema, where its CLI has an option for it;
 * given on a repair turn too (a resumed run does not keep it). */
const replySchema = () =>
  z.discriminatedUnion("kind", [
    /** A file holding the schema, named by `args` (`{file}`). */
    z.strictObject({ kind: z.literal("file"), args: argsWith("{file}") }),
    /** The schema itself, as JSON, in `args` (`{schema}`). */
    z.strictObject({ kind: z.literal("inline"), args: argsWith("{schema}") }),
    /** No such option: the prompt asks for the JSON, and scv validates what comes back. */
    z.strictObject({ kind: z.literal("prompt") }),
  ]);

/** What a review turn needs of a CLI (src/review/): a reviewer reads the tree and changes nothing. */
export const review = () =>
  z.strictObject({
    /** Arguments that keep the turn from changing the tree, given in place of the policy's
     * full-permission ones, on a first and a continued turn alike; empty where the CLI has no such
     * mode scv knows (the prompt alone asks it to change nothing). From the CLI's own `--help` at the
     * row's version, each noted on the row. */
    readOnlyArgs: args(),
    schema: replySchema(),
  });
