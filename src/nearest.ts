// The word a typo most likely meant, for "did you mean" in messages: an effort level, a config key.

/** The word of `words` that `word` most likely misspells: the same word in another case, or one a
 * transposition, insertion, deletion or substitution away (two for words of five letters or more).
 * Undefined when none is that close. */
export function nearestWord(words: readonly string[], word: string): string | undefined {
  const lower = word.toLowerCase();
  const allowed = lower.length >= 5 ? 2 : 1;
  let best: { word: string; distance: number } | undefined;
  for (const candidate of words) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance <= allowed && (best === undefined || distance < best.distance))
      best = { word: candidate, distance };
  }
  return best?.word;
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
