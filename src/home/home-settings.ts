// Values scv keeps in an agent home's own JSON settings file before it starts the agent there (the
// row's `homeSettings` at every start, its `acp.homeSettings` for its ACP server): set where they differ, the rest of the file as it was, written privately (the
// file may hold the agent's key). A file that is not a JSON object is the user's to fix: left alone.

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
