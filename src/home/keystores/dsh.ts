// DeepSeek Harness (not on npm; the seed's facts): `.credentials.yaml` holding `refs.<variable>`.
// scv writes and reads only that two-level shape line by line; lines outside the `refs:` block are
// kept as they are. (A YAML library would be the general answer, but scv has none among its
// dependencies and needs nothing beyond this one mapping.)

import { join } from "node:path";
import type { KeyStore } from "../../adapters.js";
import { looseModeNote, readSmall, removeFile, type StoreInspection, writePrivate } from "./files.js";
import type { ApiKeyStoreKind, RemoveResult } from "./types.js";

type DshStore = Extract<KeyStore, { kind: "dsh-refs" }>;

const REFS = /^refs:\s*(#.*)?$/;

/** The index range of the `refs:` block's entries, or undefined when there is no block. */
function refsBlock(lines: readonly string[]): { header: number; end: number } | undefined {
  const header = lines.findIndex((line) => REFS.test(line));
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

export function dshRef(text: string, variable: string): string | undefined {
  const lines = text.split(/\r?\n/);
  const block = refsBlock(lines);
  if (block === undefined) return undefined;
  const line = lines.slice(block.header + 1, block.end).find((entry) => entryName(entry) === variable);
  return line === undefined ? undefined : entryValue(line);
}

/** `text` with `refs.<variable>` set (or removed when `value` is undefined). */
export function dshWith(text: string, variable: string, value: string | undefined): string {
  const lines = text === "" ? [] : text.replace(/\r?\n$/, "").split(/\r?\n/);
  let block = refsBlock(lines);
  if (block === undefined) {
    if (value === undefined) return text;
    lines.push("refs:");
    block = { header: lines.length - 1, end: lines.length };
  }
  const entries = lines.slice(block.header + 1, block.end).filter((line) => entryName(line) !== variable);
  // Keys never hold `"` or `\` unescaped here: they are printable ASCII, and JSON string escaping is
  // valid YAML double-quoted escaping for that range.
  if (value !== undefined) entries.push(`  ${variable}: ${JSON.stringify(value)}`);
  const hasEntries = entries.some((line) => entryName(line) !== undefined);
  const rebuilt = [
    ...lines.slice(0, block.header),
    ...(hasEntries ? [lines[block.header] ?? "refs:", ...entries] : []),
    ...lines.slice(block.end),
  ];
  return rebuilt.length === 0 ? "" : `${rebuilt.join("\n")}\n`;
}

async function inspectDsh(store: DshStore, home: string): Promise<StoreInspection> {
  const file = await readSmall(join(home, store.path));
  if (file.kind === "unreadable")
    return { state: "unknown", detail: `${store.path} cannot be read (${file.reason})` };
  if (file.kind === "absent") return { state: "signed-out", detail: `no ${store.path}` };
  const value = dshRef(file.text, store.variable);
  if (value === undefined || value.trim() === "") {
    return { state: "signed-out", detail: `no refs.${store.variable} in ${store.path}` };
  }
  return { state: "signed-in", detail: `API key in ${store.path}${looseModeNote(file.mode)}` };
}

async function saveDsh(store: DshStore, home: string, key: string): Promise<void> {
  const path = join(home, store.path);
  const file = await readSmall(path);
  if (file.kind === "unreadable") throw new Error(`${store.path} cannot be read (${file.reason})`);
  await writePrivate(home, path, dshWith(file.kind === "text" ? file.text : "", store.variable, key));
}

/** Removes `refs.<variable>`, and the file when nothing else is left in it. */
async function removeDsh(store: DshStore, home: string): Promise<RemoveResult> {
  const path = join(home, store.path);
  const file = await readSmall(path);
  if (file.kind !== "text" || dshRef(file.text, store.variable) === undefined)
    return { removed: [], kept: [] };
  const rest = dshWith(file.text, store.variable, undefined);
  if (rest.trim() === "") {
    await removeFile(path);
    return { removed: [store.path], kept: [] };
  }
  await writePrivate(home, path, rest);
  return { removed: [`refs.${store.variable} in ${store.path}`], kept: [] };
}

export const dshStore: ApiKeyStoreKind<DshStore> = {
  files: (store) => [store.path],
  keyFile: (store) => store.path,
  inspect: inspectDsh,
  save: saveDsh,
  conflict: async () => undefined,
  remove: removeDsh,
};
