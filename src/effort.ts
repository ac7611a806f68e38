// Telling a misspelt effort level from a model id: how close a word is to the levels an agent
// accepts, and whether it is an effort word of any agent at all.

import { type AdapterDescriptor, allAdapters } from "./adapters.js";

let effortWords:
  | { readonly table: readonly AdapterDescriptor[]; readonly words: ReadonlySet<string> }
  | undefined;

/** Every effort level some agent accepts (`high`, `xhigh`, `max`, `off`, …), the config's agents'
 * too, so that a level of a user-defined agent is never read as a model id; built once per table. */
function everyEffortWord(): ReadonlySet<string> {
  const table = allAdapters();
  if (effortWords?.table !== table) {
    effortWords = {
      table,
      words: new Set(table.flatMap((entry) => entry.effortLevels.map((level) => level.toLowerCase()))),
    };
  }
  return effortWords.words;
}

/** Whether `word` is an effort level of some agent, in any case. */
export function isEffortWord(word: string): boolean {
  return everyEffortWord().has(word.toLowerCase());
}

/** The level of `levels` that `word` most likely misspells: the same word in another case, or one
 * a transposition, insertion, deletion or substitution away (two for words of five letters or more).
 * Undefined when none is that close. */
export function nearestEffort(levels: readonly string[], word: string): string | undefined {
  const lower = word.toLowerCase();
  const allowed = lower.length >= 5 ? 2 : 1;
  let best: { level: string; distance: number } | undefined;
  for (const level of levels) {
    const distance = editDistance(lower, level);
    if (distance <= allowed && (best === undefined || distance < best.distance)) best = { level, distance };
  }
  return best?.level;
}

/** Optimal string alignment distance: Levenshtein plus the transposition of two neighbours. */
function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i += 1) {
    for (let j = 1; j < cols; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const above = d[i - 1] as number[];
      let value = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = value;
    }
  }
  return (d[rows - 1] as number[])[cols - 1] as number;
}
