// File helpers shared by the key stores: bounded reads that tell "absent" from "unreadable", JSON and
// dotenv parsing that never throws, and atomic 0600 writes. Nothing here returns file contents to a
// caller that prints: the stores turn what they read into a state and a secret-free detail.

import { lstatSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { ensurePrivateDir } from "../agent-home.js";
import { writeAtomicSync } from "../atomic.js";
import { readStateFile } from "../state-file.js";

/** What a key store found, and one line saying so without any secret in it. */
export interface StoreInspection {
  readonly state: "signed-in" | "signed-out" | "unknown";
  readonly detail: string;
}

export type SmallFile =
  | { readonly kind: "absent" }
  | { readonly kind: "text"; readonly text: string; readonly mode: number }
  | { readonly kind: "unreadable"; readonly reason: string };

/** Credential and settings files are small; a bigger one is not what scv expects and is not read. */
const DEFAULT_LIMIT = 1024 * 1024;

/** Reads `path` when it is a regular file of at most `limit` bytes. The file system calls are
 * synchronous (these files are small and local): each asynchronous one is a trip through libuv's
 * thread pool, and a turn's sign-in check made a dozen before its agent could start. */
export async function readSmall(path: string, limit = DEFAULT_LIMIT): Promise<SmallFile> {
  // The CLI's own file, which it may keep as a link: followed, but never a FIFO waited on.
  const read = readStateFile(path, { maxBytes: limit, followLinks: true });
  switch (read.kind) {
    case "absent":
      return { kind: "absent" };
    case "read":
      return { kind: "text", text: read.bytes.toString("utf8"), mode: read.mode };
    case "refused":
      return {
        kind: "unreadable",
        reason: read.code ?? (read.reason === "too-large" ? `larger than ${limit} bytes` : read.why),
      };
  }
}

/** Whether `path` exists (as anything, a dangling symlink included), without reading it. */
export async function exists(path: string): Promise<boolean> {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

/** A JSON object, or undefined for anything else (invalid JSON, an array, a string). */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A non-empty string value. */
export function isFilled(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}

/** The value of `name` in dotenv text (`NAME=value`, optional `export `, optional quotes), or undefined. */
export function dotenvValue(text: string, name: string): string | undefined {
  let found: string | undefined;
  for (const line of text.split("\n")) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line.replace(/\r$/, ""));
    if (match?.[1] !== name) continue;
    const raw = match[2] ?? "";
    const quoted = /^(["'])(.*)\1$/.exec(raw);
    // The last assignment wins, as in the dotenv readers the CLIs use.
    found = quoted ? (quoted[2] ?? "") : raw;
  }
  return found;
}

/** `text` with `name` set to `value` (replacing every earlier assignment) and every other line kept. */
export function dotenvWith(text: string, name: string, value: string | undefined): string {
  const lines = text === "" ? [] : text.replace(/\n$/, "").split("\n");
  const kept = lines.filter((line) => {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line);
    return match?.[1] !== name;
  });
  if (value !== undefined) kept.push(`${name}=${value}`);
  return kept.length === 0 ? "" : `${kept.join("\n")}\n`;
}

/** " (readable by others)" when group or others may read a credential file, else "". */
export function looseModeNote(mode: number): string {
  return (mode & 0o077) !== 0 ? ` (readable by others: chmod 600 it)` : "";
}

/** Writes `path` atomically with mode 0600 and flushed to disk (src/home/atomic.ts), its folder 0700: a
 * crash or a full disk leaves the old file or the new one, never half, and the key is never readable
 * by others even for a moment. No folder below `home` (the agent home) may be a symbolic link: the
 * key goes into the agent home itself, never wherever a planted link points. */
export async function writePrivate(home: string, path: string, text: string): Promise<void> {
  ensurePrivateDir(dirname(path), home);
  writeAtomicSync(path, text, { mode: 0o600, fsync: true });
}

/** Removes `path` if it is there; true when something was removed. */
export async function removeFile(path: string): Promise<boolean> {
  if (!(await exists(path))) return false;
  rmSync(path, { force: true });
  return true;
}

/** A file's earlier content, to put back when a multi-file save fails half-way. */
export interface Snapshot {
  readonly path: string;
  readonly text: string | undefined;
}

export async function snapshot(path: string): Promise<Snapshot> {
  const file = await readSmall(path);
  return { path, text: file.kind === "text" ? file.text : undefined };
}

/** Puts every snapshot back: the file as it was, or no file where there was none. */
export async function restore(home: string, snapshots: readonly Snapshot[]): Promise<void> {
  for (const { path, text } of snapshots) {
    if (text === undefined) rmSync(path, { force: true });
    else await writePrivate(home, path, text);
  }
}

/** The day part of a date, for expiries. */
export function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function isMissing(error: unknown): boolean {
  const code = errorCode(error);
  return code === "ENOENT" || code === "ENOTDIR";
}

function errorCode(error: unknown): string {
  if (isRecord(error) && typeof error.code === "string") return error.code;
  return error instanceof Error ? error.message : String(error);
}

/** A copy of `object` with the value at `path` set, or removed when `value` is undefined (objects left
 * empty by a removal go too). */
export function withValueAt(
  object: Record<string, unknown>,
  path: readonly string[],
  value: unknown,
): Record<string, unknown> {
  const [head, ...rest] = path;
  if (head === undefined) return object;
  const copy = { ...object };
  if (rest.length === 0) {
    if (value === undefined) delete copy[head];
    else copy[head] = value;
    return copy;
  }
  const inner = isRecord(copy[head]) ? copy[head] : {};
  const next = withValueAt(inner, rest, value);
  if (Object.keys(next).length === 0 && value === undefined) delete copy[head];
  else copy[head] = next;
  return copy;
}

/** The value at `path`, or undefined. */
export function valueAt(object: unknown, path: readonly string[]): unknown {
  let current = object;
  for (const key of path) {
    if (!isRecord(current)) return undefined;
    current = current[key];
  }
  return current;
}

/** The JSON object in a settings file scv is about to change (`{}` when there is none); a file that is
 * not a JSON object is the user's to fix, never overwritten. `name` names it in the message. */
export async function readSettingsObject(path: string, name: string): Promise<Record<string, unknown>> {
  const file = await readSmall(path);
  if (file.kind === "absent") return {};
  if (file.kind === "unreadable") throw new Error(`${name} cannot be read (${file.reason})`);
  const object = parseJsonObject(file.text);
  if (object === undefined)
    throw new Error(`${name} is not a JSON object — fix or remove it, then try again`);
  return object;
}

export function jsonText(object: Record<string, unknown>): string {
  return `${JSON.stringify(object, null, 2)}\n`;
}
