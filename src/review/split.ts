// A diff made into review parts: the files a reviewer reads, packed in the diff's order into parts
// of at most `maxBytes` of patch each (one turn each), and every file left out named with why —
// binary, generated (and what made it so), or a patch over the limit on its own. Nothing is dropped
// without a line in the report.
//
// API: `splitDiff(files, { maxBytes })` → `ReviewPlan`; `DEFAULT_PART_BYTES`. Pure.

import type { DiffFile } from "./diff.js";

/** A part's patch limit when the caller sets none (the config's setting, later): about 25k tokens
 * of diff, which leaves a reviewer room to read the files around it. */
export const DEFAULT_PART_BYTES = 100_000;

type SkipReason = "binary" | "generated" | "too-large";

export interface SkippedFile {
  readonly path: string;
  readonly reason: SkipReason;
  /** The reason in words: "generated: lockfile", "its diff is 250000 bytes, over the 100000 of a part". */
  readonly detail: string;
}

export interface ReviewPlan {
  /** Each part's files, in the diff's order; empty when nothing is left to read. */
  readonly parts: readonly (readonly DiffFile[])[];
  readonly skipped: readonly SkippedFile[];
}

export interface SplitOptions {
  /** The most patch text (UTF-8 bytes) one part holds. */
  readonly maxBytes: number;
}

function skipReason(file: DiffFile, maxBytes: number, bytes: number): SkippedFile | undefined {
  if (file.binary) return { path: file.path, reason: "binary", detail: "binary" };
  if (file.generated !== undefined) {
    return { path: file.path, reason: "generated", detail: `generated: ${file.generated}` };
  }
  if (bytes > maxBytes) {
    return {
      path: file.path,
      reason: "too-large",
      detail: `its diff is ${bytes} bytes, over the ${maxBytes} of one review part`,
    };
  }
  return undefined;
}

/** The parts and the files left out. Pure. */
export function splitDiff(files: readonly DiffFile[], options: SplitOptions): ReviewPlan {
  const { maxBytes } = options;
  const parts: DiffFile[][] = [];
  const skipped: SkippedFile[] = [];
  let current: DiffFile[] = [];
  let used = 0;
  for (const file of files) {
    const bytes = Buffer.byteLength(file.patch);
    const skip = skipReason(file, maxBytes, bytes);
    if (skip !== undefined) {
      skipped.push(skip);
      continue;
    }
    if (current.length > 0 && used + bytes > maxBytes) {
      parts.push(current);
      current = [];
      used = 0;
    }
    current.push(file);
    used += bytes;
  }
  if (current.length > 0) parts.push(current);
  return { parts, skipped };
}
