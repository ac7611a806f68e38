// Telling a misspelt effort level from a model id: how close a word is to the levels an agent
// accepts, and whether it is an effort word of any agent at all.

import { type AdapterDescriptor, allAdapters } from "./adapters.js";
import { nearestWord } from "./nearest.js";

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

/** The level of `levels` that `word` most likely misspells (`nearestWord`). */
export function nearestEffort(levels: readonly string[], word: string): string | undefined {
  return nearestWord(levels, word);
}
