// scv's own small JSON files that a reader may find missing or not of its shape (an older scv's, one
// removed meanwhile): each is then as good as absent. Their writers write atomically, so no reader
// ever sees one half-written. Read through state-file.ts: a FIFO, a link or a device in their place
// is skipped with a note, never waited on or followed.

import type * as z from "zod/mini";
import { readStateText, SMALL_STATE_BYTES } from "./state-file.js";

/** The file at `path` as `schema` reads it; undefined when it is missing, refused, not JSON or not
 * of that shape. */
export function readJsonFile<T>(
  path: string,
  schema: z.ZodMiniType<T>,
  maxBytes = SMALL_STATE_BYTES,
): T | undefined {
  const text = readStateText(path, { maxBytes });
  if (text === undefined) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
