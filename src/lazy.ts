// A value built on its first use. For zod schemas a plain turn never runs (results read back, `--events`
// lines, records, config files most users lack): built when their modules load, they cost every
// turn's start-up time (docs/benchmarks.md).

/** A getter that builds the value on its first call and returns the same one after. */
export function lazy<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => {
    value ??= build();
    return value;
  };
}
