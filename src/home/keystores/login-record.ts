// What `scv agents login --with-api-key` wrote into a CLI's own settings besides the key (the sign-in
// a `selected-key` store tells the CLI to use), and what was there before, kept in the agent home's
// `.scv/login-settings.json` (0600). A sign-out takes back exactly that: a value the user had set
// already is never login's to remove, and one login replaced is put back. A value the user changed
// after the login is theirs: the sign-out leaves it.

import { join } from "node:path";
import { isRecord, jsonText, parseJsonObject, readSmall, removeFile, writePrivate } from "./files.js";

const RECORD = join(".scv", "login-settings.json");

/** One value login wrote: at `path` of the JSON settings `file` (relative to the agent home). */
export interface LoginWrote {
  readonly file: string;
  readonly path: readonly string[];
  readonly value: unknown;
  /** What was there before; absent when nothing was. */
  readonly before?: unknown;
}

function keyOf(file: string, path: readonly string[]): string {
  return `${file}#${path.join(".")}`;
}

async function readRecord(home: string): Promise<Record<string, unknown>> {
  const read = await readSmall(join(home, RECORD));
  return read.kind === "text" ? (parseJsonObject(read.text) ?? {}) : {};
}

/** Records that login wrote `wrote.value` (replacing any earlier record of the same place). */
export async function recordLoginWrote(home: string, wrote: LoginWrote): Promise<void> {
  const record = await readRecord(home);
  const entry =
    wrote.before === undefined ? { value: wrote.value } : { value: wrote.value, before: wrote.before };
  await writePrivate(
    home,
    join(home, RECORD),
    jsonText({ ...record, [keyOf(wrote.file, wrote.path)]: entry }),
  );
}

/** What login wrote at `path` of `file`, if it recorded writing anything there. */
export async function loginWrote(
  home: string,
  file: string,
  path: readonly string[],
): Promise<LoginWrote | undefined> {
  const entry = (await readRecord(home))[keyOf(file, path)];
  if (!isRecord(entry) || !("value" in entry)) return undefined;
  return { file, path, value: entry.value, ...("before" in entry ? { before: entry.before } : {}) };
}

/** Forgets what login wrote at `path` of `file`; the record goes when nothing is left in it. */
export async function forgetLoginWrote(home: string, file: string, path: readonly string[]): Promise<void> {
  const { [keyOf(file, path)]: _gone, ...rest } = await readRecord(home);
  if (Object.keys(rest).length === 0) await removeFile(join(home, RECORD));
  else await writePrivate(home, join(home, RECORD), jsonText(rest));
}
