// The building blocks of the descriptor's schema (src/descriptor/row.ts): names, paths, argument
// lists, patterns. Each is a function, so that a schema is built only when something parses a row:
// a plain turn reads the shipped rows, typed by this schema, and never builds it (src/lazy.ts).
//
// A pattern (`idPattern`, `textNotices`) is a RegExp in the table and a string in a config file: the
// schema takes either and gives a RegExp, and a string must be anchored (`^…$`), since what it
// accepts goes into argv.

import * as z from "zod/mini";

/** A schema's output, read-only as the table is: the type a row's field has. */
export type Field<S extends () => z.ZodMiniType> = DeepReadonly<z.output<ReturnType<S>>>;

type DeepReadonly<T> = T extends RegExp
  ? T
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** A name usable as a CLI token, a home folder `agents/<name>` and a handle's prefix. */
export const AGENT_NAME_PATTERN = /^[a-z][a-z0-9-]{0,30}$/;

export const text = () => z.string().check(z.minLength(1));
export const args = () => z.array(z.string());
export const envName = () =>
  z
    .string()
    .check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: "expected a variable name such as FOO_HOME" }));
export const envRule = () =>
  z.string().check(
    z.regex(/^[A-Za-z_][A-Za-z0-9_]*\*?$/, {
      error: "expected a variable name, or a prefix ending in *",
    }),
  );
/** A variable and its value (or, for home variables, a path relative to the agent home). */
export const envPair = () => z.tuple([envName(), z.string()]);

/** A path inside the agent home: relative, and never climbing out of it. */
export const homePath = () =>
  z.string().check(
    z.refine((path: string) => !path.startsWith("/") && !path.split("/").includes(".."), {
      error: "expected a path relative to the agent home, without ..",
    }),
  );

/** A path of keys into a JSON (or TOML) document: at least one key. */
export const keyPath = () => z.array(text()).check(z.minLength(1));

function anchoredPattern(source: string): boolean {
  if (!source.startsWith("^") || !source.endsWith("$")) return false;
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

const PATTERN_ERROR = "expected a regular expression anchored at both ends, such as ^[0-9a-f-]{36}$";

/** A RegExp in the table; in a config file a string anchored at both ends, made into one. */
export const pattern = () =>
  z.pipe(
    z.unknown(),
    z.transform((value: unknown, context): RegExp => {
      if (value instanceof RegExp) return value;
      if (typeof value === "string" && anchoredPattern(value)) return new RegExp(value);
      context.issues.push({ code: "custom", message: PATTERN_ERROR, input: value });
      return z.NEVER;
    }),
  );

/** Arguments holding `placeholder` (`{model}`, `{file}`) in one of them, or none at all. */
export const argsWith = (placeholder: string) =>
  args().check(
    z.refine(
      (list: readonly string[]) => list.length === 0 || list.some((arg) => arg.includes(placeholder)),
      { error: `expected ${placeholder} in one of its arguments` },
    ),
  );

/** A provider's id: a TOML bare key, a JSON key and a model id's prefix alike. */
export const providerName = () =>
  z.string().check(z.regex(/^[a-z][a-z0-9-]{0,30}$/, { error: "expected a name such as my-endpoint" }));

/** Whether the row was checked against the published CLI: `lab` names the version the lab or the
 * contract suite drove through whole turns against a loopback mock; `offline` the version checked
 * only where no model is needed (it installs and answers `--version`, takes scv's arguments, says it
 * is signed out and how to sign in), with why no turn could reach a mock; `unverified` says why not. */
export const verified = () =>
  z.discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("lab"), version: text() }),
    z.strictObject({ kind: z.literal("offline"), version: text(), reason: text() }),
    z.strictObject({ kind: z.literal("unverified"), reason: text() }),
  ]);
export type Verified = Field<typeof verified>;
