// A key in a YAML file as an entry of one top-level mapping (`refs:` then `  NAME: "…"`). scv writes
// and reads only that two-level shape line by line; lines outside the mapping's block are kept as
// they are. (A YAML library would be the general answer, but scv has none among its dependencies and
// needs nothing beyond this one mapping.)

import { join } from "node:path";
import type { KeyStore } from "../../adapters.js";
import { looseModeNote, readSmall, removeFile, type StoreInspection, writePrivate } from "./files.js";
import type { ApiKeyStoreKind, RemoveResult } from "./keystore-types.js";

type YamlEntryStore = Extract<KeyStore, { kind: "yaml-entry" }>;

/** The index range of the `<map>:` block's entries, or undefined when there is no block. */
function mapBlock(lines: readonly string[], map: string): { header: number; end: number } | undefined {
  const header = lines.findIndex(
    (line) => line.startsWith(`${map}:`) && /^\s*(#.*)?$/.test(line.slice(map.length + 1)),
  );
  if (header === -1) return undefined;
  let end = header + 1;
  while (end < lines.length && /^(\s+\S|\s*$)/.test(lines[end] ?? "")) end += 1;
  return { header, end };
}

function entryName(line: string): string | undefined {
  return /^\s+([A-Za-z_][A-Za-z0-9_]*)\s*:/.exec(line)?.[1];
}

function entryValue(line: string): string {
  const raw = line.slice(line.indexOf(":") + 1).trim();
  const quoted = /^"((?:[^"\\]|\\.)*)"$/.exec(raw) ?? /^'(.*)'$/.exec(raw);
  return quoted ? (quoted[1] ?? "") : raw.replace(/\s+#.*$/, "");
}

/** The value of `<map>.<variable>`, or undefined. */
export function yamlEntry(text: string, map: string, variable: string): string | undefined {
  const lines = text.split(/\r?\n/);
  const block = mapBlock(lines, map);
  if (block === undefined) return undefined;
  const line = lines.slice(block.header + 1, block.end).find((entry) => entryName(entry) === variable);
  return line === undefined ? undefined : entryValue(line);
}

/** `text` with `<map>.<variable>` set (or removed when `value` is undefined). */
export function yamlWithEntry(
  text: string,
  map: string,
  variable: string,
  value: string | undefined,
): string {
  const lines = text === "" ? [] : text.replace(/\r?\n$/, "").split(/\r?\n/);
  let block = mapBlock(lines, map);
  if (block === undefined) {
    if (value === undefined) return text;
    lines.push(`${map}:`);
    block = { header: lines.length - 1, end: lines.length };
  }
  const entries = lines.slice(block.header + 1, block.end).filter((line) => entryName(line) !== variable);
  // Keys never hold `"` or `\` unescaped here: they are printable ASCII, and JSON string escaping is
  // valid YAML double-quoted escaping for that range.
  if (value !== undefined) entries.push(`  ${variable}: ${JSON.stringify(value)}`);
  const hasEntries = entries.some((line) => entryName(line) !== undefined);
  const rebuilt = [
    ...lines.slice(0, block.header),
    ...(hasEntries ? [lines[block.header] ?? `${map}:`, ...entries] : []),
    ...lines.slice(block.end),
  ];
  return rebuilt.length === 0 ? "" : `${rebuilt.join("\n")}\n`;
}

async function inspectYamlEntry(store: YamlEntryStore, home: string): Promise<StoreInspection> {
  const file = await readSmall(join(home, store.file));
  if (file.kind === "unreadable")
    return { state: "unknown", detail: `${store.file} cannot be read (${file.reason})` };
  if (file.kind === "absent") return { state: "signed-out", detail: `no ${store.file}` };
  const value = yamlEntry(file.text, store.map, store.variable);
  if (value === undefined || value.trim() === "") {
    return { state: "signed-out", detail: `no ${store.map}.${store.variable} in ${store.file}` };
  }
  return { state: "signed-in", detail: `API key in ${store.file}${looseModeNote(file.mode)}` };
}

async function saveYamlEntry(store: YamlEntryStore, home: string, key: string): Promise<void> {
  const path = join(home, store.file);
  const file = await readSmall(path);
  if (file.kind === "unreadable") throw new Error(`${store.file} cannot be read (${file.reason})`);
  await writePrivate(
    home,
    path,
    yamlWithEntry(file.kind === "text" ? file.text : "", store.map, store.variable, key),
  );
}

/** Removes `<map>.<variable>`, and the file when nothing else is left in it. */
async function removeYamlEntry(store: YamlEntryStore, home: string): Promise<RemoveResult> {
  const path = join(home, store.file);
  const file = await readSmall(path);
  if (file.kind !== "text" || yamlEntry(file.text, store.map, store.variable) === undefined)
    return { removed: [], kept: [] };
  const rest = yamlWithEntry(file.text, store.map, store.variable, undefined);
  if (rest.trim() === "") {
    await removeFile(path);
    return { removed: [store.file], kept: [] };
  }
  await writePrivate(home, path, rest);
  return { removed: [`${store.map}.${store.variable} in ${store.file}`], kept: [] };
}

export const yamlEntryStore: ApiKeyStoreKind<YamlEntryStore> = {
  files: (store) => [store.file],
  keyFile: (store) => store.file,
  inspect: inspectYamlEntry,
  save: saveYamlEntry,
  conflict: async () => undefined,
  remove: removeYamlEntry,
};
