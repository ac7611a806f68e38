// A temporary scv home with files of chosen ages, for the gc and conversations tests.

import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import type { ConversationRecord } from "../../../src/home/conversations.js";

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export interface TempHome {
  /** Real path of the temp root; `scv` (SCV_HOME) and `outside` live in it. */
  readonly root: string;
  readonly scv: string;
  readonly outside: string;
  readonly env: Record<string, string>;
  /** Writes `text` at `path` (relative to SCV_HOME) last modified `age` before `now`. */
  file(path: string, age: number, text?: string): string;
  /** Sets a folder's mtime, after its files were written (writing a file moves it). */
  age(path: string, age: number): string;
  /** Creates an empty folder last modified `age` before `now`. */
  folder(path: string, age: number): string;
  symlink(path: string, target: string): string;
  record(record: Partial<ConversationRecord> & { handle: string; agent: string }, age: number): string;
  /** Every path below SCV_HOME and `outside`, symlinks not followed, relative to the root; not
   * scv's compile cache ($SCV_HOME/cache, src/cli/compile-cache.ts), which every successful run may add. */
  snapshot(): string[];
  remove(): void;
}

export function tempHome(now: number): TempHome {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "scv-gc-")));
  const scv = join(root, "scv");
  const outside = join(root, "outside");
  mkdirSync(scv);
  mkdirSync(outside);
  const at = (path: string) => (path.startsWith("/") ? path : join(scv, path));
  const touch = (path: string, age: number) => {
    const seconds = (now - age) / 1000;
    utimesSync(path, seconds, seconds);
    return path;
  };
  const home: TempHome = {
    root,
    scv,
    outside,
    env: { SCV_HOME: scv, HOME: join(root, "user"), PATH: process.env.PATH ?? "/usr/bin:/bin" },
    file(path, age, text = '{"type":"line"}\n') {
      const full = at(path);
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, text);
      return touch(full, age);
    },
    age(path, age) {
      return touch(at(path), age);
    },
    folder(path, age) {
      mkdirSync(at(path), { recursive: true });
      return touch(at(path), age);
    },
    symlink(path, target) {
      const full = at(path);
      mkdirSync(dirname(full), { recursive: true });
      symlinkSync(target, full);
      return full;
    },
    record(partial, age) {
      const time = new Date(now - age).toISOString();
      const record = {
        cwd: "/work/project",
        policy: "auto",
        createdAt: time,
        updatedAt: time,
        turns: 1,
        usage: {},
        ...partial,
      };
      return home.file(`conversations/${partial.handle}.json`, age, `${JSON.stringify(record, null, 2)}\n`);
    },
    snapshot() {
      const out: string[] = [];
      const walk = (dir: string) => {
        for (const name of readdirSync(dir).sort()) {
          const path = join(dir, name);
          if (path === join(scv, "cache")) continue;
          out.push(relative(root, path));
          if (lstatSync(path).isDirectory()) walk(path);
        }
      };
      walk(scv);
      walk(outside);
      return out;
    },
    remove() {
      rmSync(root, { recursive: true, force: true });
    },
  };
  return home;
}

export const uuid = (n: number) => `${String(n).padStart(8, "0")}-1111-4222-8333-444455556666`;
