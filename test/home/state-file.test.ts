// The one reader of scv's files (src/home/state-file.ts): a FIFO is opened without waiting and
// refused, a link is refused (followed only where asked), a folder or a device is refused, a file
// over the bound is refused (or its tail read), a missing file is absent; each refusal is noted once
// per path. And the class stays fixed: no module of src/ reads a file any other way.

import { execFileSync } from "node:child_process";
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStateFile, readStateFile, readStateText, sendStateNotesTo } from "../../src/home/state-file.js";

let dir: string;
let notes: string[];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "scv-state-file-"));
  notes = [];
  sendStateNotesTo((line) => notes.push(line));
});
afterEach(() => {
  sendStateNotesTo(undefined);
  rmSync(dir, { recursive: true, force: true });
});

const SMALL = { maxBytes: 1024 };

describe("readStateFile", () => {
  it("reads a regular file whole, with its mode; a missing one is absent", () => {
    writeFileSync(join(dir, "a.json"), "{}\n", { mode: 0o600 });
    expect(readStateFile(join(dir, "a.json"), SMALL)).toEqual({
      kind: "read",
      bytes: Buffer.from("{}\n"),
      mode: 0o600,
    });
    expect(readStateFile(join(dir, "none.json"), SMALL)).toEqual({ kind: "absent" });
    expect(readStateFile(join(dir, "none", "below.json"), SMALL)).toEqual({ kind: "absent" });
  });

  it("refuses a FIFO at once, without waiting for a writer", () => {
    const fifo = join(dir, "f.json");
    execFileSync("mkfifo", [fifo]);
    const started = Date.now();
    expect(readStateFile(fifo, SMALL)).toMatchObject({
      kind: "refused",
      reason: "not-file",
      why: "a FIFO, not a regular file",
    });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("refuses a link unless asked to follow it; a folder; a device (through a followed link)", () => {
    const target = join(dir, "target.json");
    writeFileSync(target, "{}\n");
    symlinkSync(target, join(dir, "link.json"));
    expect(readStateFile(join(dir, "link.json"), SMALL)).toMatchObject({ kind: "refused", reason: "link" });
    expect(readStateFile(join(dir, "link.json"), { ...SMALL, followLinks: true })).toMatchObject({
      kind: "read",
    });
    mkdirSync(join(dir, "folder.json"));
    expect(readStateFile(join(dir, "folder.json"), SMALL)).toMatchObject({
      kind: "refused",
      why: "a folder, not a regular file",
    });
    symlinkSync("/dev/zero", join(dir, "zero.json"));
    expect(readStateFile(join(dir, "zero.json"), { ...SMALL, followLinks: true })).toMatchObject({
      kind: "refused",
      why: "a device, not a regular file",
    });
  });

  it("refuses a file over the bound, or reads its tail when asked", () => {
    writeFileSync(join(dir, "big.log"), `${"x".repeat(2000)}\nlast line\n`);
    expect(readStateFile(join(dir, "big.log"), SMALL)).toMatchObject({
      kind: "refused",
      reason: "too-large",
    });
    const tail = readStateFile(join(dir, "big.log"), { maxBytes: 16, tail: true });
    expect(tail.kind === "read" ? tail.bytes.toString() : tail).toBe("xxxxx\nlast line\n");
    const whole = readStateFile(join(dir, "big.log"), { maxBytes: 4096, tail: true });
    expect(whole.kind === "read" ? whole.bytes.length : whole).toBe(2011);
  });

  it("openStateFile hands a regular file's descriptor to a reader that reads on, and refuses the rest", () => {
    writeFileSync(join(dir, "t.jsonl"), "one\n");
    const opened = openStateFile(join(dir, "t.jsonl"));
    expect(opened.kind).toBe("open");
    if (opened.kind === "open") {
      expect(opened.stats.size).toBe(4);
      expect(readFileSync(opened.fd, "utf8")).toBe("one\n");
      closeSync(opened.fd);
    }
    execFileSync("mkfifo", [join(dir, "p.jsonl")]);
    expect(openStateFile(join(dir, "p.jsonl"))).toMatchObject({ kind: "refused", reason: "not-file" });
  });
});

describe("readStateText", () => {
  it("skips what it refuses as absent, with one note per path", () => {
    const fifo = join(dir, "codex-ffffff.json");
    execFileSync("mkfifo", [fifo]);
    expect(readStateText(fifo, SMALL)).toBeUndefined();
    expect(readStateText(fifo, SMALL)).toBeUndefined();
    expect(readStateText(join(dir, "absent.json"), SMALL)).toBeUndefined();
    expect(notes).toEqual([`scv: note: skipped ${fifo}: a FIFO, not a regular file — remove it\n`]);
  });
});

describe("src/", () => {
  /** The modules that open files themselves, and why each may. */
  const ALLOWED: Record<string, string> = {
    "src/home/state-file.ts": "the reader",
    "src/home/atomic.ts": "creates its own temporary file (O_EXCL)",
    "src/home/background-result.ts": "creates the result exclusively (wx)",
    "src/home/usage-log.ts": "appends: O_NOFOLLOW | O_NONBLOCK, regular files only",
    "src/home/agent-home.ts": "folders, and appends: O_NOFOLLOW | O_NONBLOCK",
    "src/home/sign-in-failures.ts": "touches a mark: O_NOFOLLOW | O_NONBLOCK",
    "src/cli/compile-cache.ts": "scv's own bundle, and writes its cache (O_NOFOLLOW)",
    "src/cli/lost-terminal.ts": "/dev/null",
    "src/turn/review-turn.ts":
      "creates the findings' schema file exclusively (wx, 0600) in the turn's TMPDIR",
    "src/os/proc.ts": "/proc",
    "src/random.ts": "/dev/urandom",
  };
  const RAW_READ = /\b(readFileSync|openSync|createReadStream|readFile)\(/;

  function sources(folder: string): string[] {
    return readdirSync(folder, { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".ts"))
      .map((name) => join(folder, name));
  }

  it("opens no file but through the reader, except where listed and why", () => {
    const root = join(import.meta.dirname, "..", "..");
    const offenders = sources(join(root, "src"))
      .map((path) => relative(root, path))
      .filter((path) => ALLOWED[path] === undefined)
      .filter((path) =>
        readFileSync(join(root, path), "utf8")
          .split("\n")
          .some(
            (line) =>
              !line.trimStart().startsWith("//") && !line.trimStart().startsWith("*") && RAW_READ.test(line),
          ),
      );
    expect(offenders).toEqual([]);
  });
});
