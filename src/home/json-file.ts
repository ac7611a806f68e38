// scv's own small JSON files that a reader may find missing or not of its shape (an older scv's, one
// removed meanwhile): each is then as good as absent. Their writers write atomically, so no reader
// ever sees one half-written.

import { readFileSync } from "node:fs";
import type * as z from "zod/mini";

/** The file at `path` as `schema` reads it; undefined when it is missing, unreadable, not JSON or not
 * of that shape. */
export function readJsonFile<T>(path: string, schema: z.ZodMiniType<T>): T | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(readFileSync(path, "utf8")));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
