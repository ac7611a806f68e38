// Readers for the JSON shapes of CLI wire events: a handful of combinators (object, string, array,
// union, …) that check a parsed line and keep only the fields scv reads.
//
// Why not zod, which scv uses for its config and records: every turn builds its parser's schemas
// and reads its first lines with them, and zod's schema construction and first parses were a large
// share of scv's own CPU time on a turn (docs/benchmarks.md), for checks that are a `typeof` each. These readers are plain closures over a field list: nothing to build beyond the
// closures, nothing compiled on first use, no issue objects for a mismatch. They report only
// whether a value fits, never why: a line that does not fit is skipped or counted, and nobody reads
// a message about it.

const INVALID: unique symbol = Symbol("invalid");
/** What a reader returns for a value that does not fit. */
type Invalid = typeof INVALID;

/** A reader of one shape. `Optional`: whether an object field of this shape may be absent. */
export interface Shape<T, Optional extends boolean = boolean> {
  /** The value as this shape reads it (objects keep only their declared fields), or `INVALID`. */
  readonly read: (value: unknown) => T | Invalid;
  readonly optional: Optional;
}

/** The type a shape reads. */
export type Infer<S> = S extends Shape<infer T, boolean> ? T : never;

/** The fields of an object shape. */
export type Fields = Readonly<Record<string, Shape<unknown, boolean>>>;

type OptionalKeys<F extends Fields> = {
  [K in keyof F]: F[K] extends Shape<unknown, true> ? K : never;
}[keyof F];

type Flatten<T> = { [K in keyof T]: T[K] } & {};

export type ObjectOf<F extends Fields> = Flatten<
  { [K in Exclude<keyof F, OptionalKeys<F>>]: Infer<F[K]> } & {
    [K in OptionalKeys<F>]?: Infer<F[K]>;
  }
>;

/** The value as `shape` reads it, or null when it does not fit. */
export function readAs<T>(shape: Shape<T>, value: unknown): T | null {
  const read = shape.read(value);
  return read === INVALID ? null : read;
}

function required<T>(read: (value: unknown) => T | Invalid): Shape<T, false> {
  return { read, optional: false };
}

const stringShape = required((value) => (typeof value === "string" ? value : INVALID));
const numberShape = required((value) =>
  // JSON has no NaN or Infinity; a number that is one came from somewhere else.
  typeof value === "number" && Number.isFinite(value) ? value : INVALID,
);
const booleanShape = required((value) => (typeof value === "boolean" ? value : INVALID));
const unknownShape: Shape<unknown, false> = required((value) => value);

export function string(): Shape<string, false> {
  return stringShape;
}

export function number(): Shape<number, false> {
  return numberShape;
}

export function boolean(): Shape<boolean, false> {
  return booleanShape;
}

export function unknown(): Shape<unknown, false> {
  return unknownShape;
}

export function literal<const L extends string | number | boolean>(expected: L): Shape<L, false> {
  return required((value) => (value === expected ? expected : INVALID));
}

/** Absent (undefined) or `shape`. */
export function optional<T>(shape: Shape<T>): Shape<T | undefined, true> {
  const read = shape.read;
  return { read: (value) => (value === undefined ? undefined : read(value)), optional: true };
}

export function nullable<T>(shape: Shape<T>): Shape<T | null, false> {
  const read = shape.read;
  return required((value) => (value === null ? null : read(value)));
}

/** A field read when it is there and fits; absent, or of another type, it reads as undefined
 * rather than failing the whole event (CLIs change field types between releases). */
export function maybe<T>(shape: Shape<T>): Shape<T | undefined, true> {
  const read = shape.read;
  return {
    read: (value) => {
      if (value === undefined) return undefined;
      const result = read(value);
      return result === INVALID ? undefined : result;
    },
    optional: true,
  };
}

/** The first of `options` that fits. */
export function union<const O extends readonly Shape<unknown>[]>(options: O): Shape<Infer<O[number]>, false> {
  const reads = options.map((option) => option.read);
  return required((value) => {
    for (const read of reads) {
      const result = read(value);
      if (result !== INVALID) return result as Infer<O[number]>;
    }
    return INVALID;
  });
}

export function array<T>(item: Shape<T>): Shape<T[], false> {
  const read = item.read;
  return required((value) => {
    if (!Array.isArray(value)) return INVALID;
    const items: T[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const result = read(value[i]);
      if (result === INVALID) return INVALID;
      items[i] = result;
    }
    return items;
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A JSON object whose every value fits `values`. */
export function record<T>(values: Shape<T>): Shape<Record<string, T>, false> {
  const read = values.read;
  return required((value) => {
    if (!isRecord(value)) return INVALID;
    const entries: Record<string, T> = {};
    for (const key of Object.keys(value)) {
      const result = read(value[key]);
      if (result === INVALID) return INVALID;
      // Assigned, a `__proto__` key would set the prototype instead of holding data.
      if (key === "__proto__")
        Object.defineProperty(entries, key, {
          value: result,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else entries[key] = result;
    }
    return entries;
  });
}

/** A JSON object with `fields`; any other field is dropped unread. An absent optional field stays
 * absent, as does one that reads as undefined. */
export function object<const F extends Fields>(fields: F): Shape<ObjectOf<F>, false> {
  const keys = Object.keys(fields);
  // Read as `value[key]`, which would find a field a line lacks on Object.prototype.
  const inherited = keys.find((key) => key in Object.prototype);
  if (inherited !== undefined) throw new Error(`shape field '${inherited}' is a member of every object`);
  const reads = keys.map((key) => (fields[key] as Shape<unknown>).read);
  return required((value) => {
    if (!isRecord(value)) return INVALID;
    const kept: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const result = (reads[i] as Shape<unknown>["read"])(value[key]);
      if (result === INVALID) return INVALID;
      if (result !== undefined) kept[key] = result;
    }
    return kept as ObjectOf<F>;
  });
}
