// Values scv keeps in an agent home's own JSON settings file before it starts the agent there (the
// row's `homeSettings` at every start, its `acp.homeSettings` for its ACP server): set where they
// differ, the rest of the file as it was, written privately (the file may hold the agent's key). A
// file that is not a JSON object is the user's to fix: left alone. And a value an endpoint of the
// user's own needs, set only where the user set none (`requireSetting`).

import { join } from "node:path";
import type { AdapterDescriptor, HomeSettings } from "../adapters.js";
import {
  jsonText,
  parseJsonObject,
  readSmall,
  valueAt,
  withValueAt,
  writePrivate,
} from "./keystores/files.js";

/** Applies `settings` in `home`; returns whether the file was written. */
export async function applyHomeSettings(home: string, settings: HomeSettings): Promise<boolean> {
  const path = join(home, settings.file);
  const read = await readSmall(path);
  if (read.kind === "unreadable") return false;
  const current = read.kind === "absent" ? {} : parseJsonObject(read.text);
  if (current === undefined) return false;
  let next = current;
  for (const { path: at, value } of settings.values)
    if (valueAt(next, at) !== value) next = withValueAt(next, at, value);
  if (next === current) return false;
  await writePrivate(home, path, jsonText(next));
  return true;
}

/** Keeps the row's settings in `home` before scv starts the CLI there, and its ACP server's too when
 * that is what starts (`acp`). */
export async function keepHomeSettings(entry: AdapterDescriptor, home: string, acp = false): Promise<void> {
  const server = acp ? entry.acp?.homeSettings : undefined;
  for (const settings of [entry.homeSettings, server])
    if (settings !== undefined) await applyHomeSettings(home, settings);
}

/** What a JSON settings file holds at a path scv needs set to one value. */
export type RequiredSetting =
  /** It holds the value (set now by scv where nothing was set). */
  | { readonly kind: "holds" }
  /** The user chose another value there: theirs to change. */
  | { readonly kind: "other"; readonly value: unknown }
  /** The file cannot be read, or is not a JSON object. */
  | { readonly kind: "unreadable"; readonly reason: string };

/** Sets `path` of the JSON settings `file` (relative to `home`) to `value` where nothing is set there,
 * every other setting as it was; a value the user set is never changed. */
export async function requireSetting(
  home: string,
  setting: { readonly file: string; readonly path: readonly string[]; readonly value: string },
): Promise<RequiredSetting> {
  const path = join(home, setting.file);
  const read = await readSmall(path);
  if (read.kind === "unreadable") return { kind: "unreadable", reason: read.reason };
  const current = read.kind === "absent" ? {} : parseJsonObject(read.text);
  if (current === undefined) return { kind: "unreadable", reason: "not a JSON object" };
  const found = valueAt(current, setting.path);
  if (found === setting.value) return { kind: "holds" };
  if (found !== undefined) return { kind: "other", value: found };
  await writePrivate(home, path, jsonText(withValueAt(current, setting.path, setting.value)));
  return { kind: "holds" };
}
