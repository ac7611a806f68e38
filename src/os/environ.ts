// Searching a process's environment (as in /proc/<pid>/environ: NUL-separated `NAME=value` entries)
// in its raw bytes: this runs at the end of every turn over every process on the machine, and
// decoding and splitting each environment was most of its cost.

/** Whether `environ` holds the entry `needle` names as `\0NAME=value\0`. */
export function hasVariable(environ: Buffer, needle: Buffer): boolean {
  if (environ.indexOf(needle) !== -1) return true;
  // The first entry has no NUL before it; the last may lack the one after it.
  const entry = needle.subarray(1, needle.length - 1);
  const first = environ.indexOf(0);
  if ((first === -1 ? environ : environ.subarray(0, first)).equals(entry)) return true;
  const tail = environ.at(-1) === 0 ? environ.subarray(0, -1) : environ;
  return (
    tail.length > entry.length &&
    tail[tail.length - entry.length - 1] === 0 &&
    tail.subarray(tail.length - entry.length).equals(entry)
  );
}

/** The value of the variable `prefix` names (`\0NAME=`) in `environ`, or undefined. */
export function variableValue(environ: Buffer, prefix: Buffer): string | undefined {
  const entry = prefix.subarray(1);
  let start: number;
  if (environ.subarray(0, entry.length).equals(entry)) start = entry.length;
  else {
    const at = environ.indexOf(prefix);
    if (at === -1) return undefined;
    start = at + prefix.length;
  }
  const end = environ.indexOf(0, start);
  return environ.toString("latin1", start, end === -1 ? environ.length : end);
}
