import { spawnSync } from "node:child_process";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  createAtomicSync,
  sweepDeadTemporaries,
  temporaryPath,
  temporaryWriter,
  writeAtomicSync,
} from "../../src/home/atomic.js";
import { conversationsDir, readConversation, writeConversation } from "../../src/home/conversations.js";
import { writePrivate } from "../../src/home/keystores/files.js";
import { builtChild } from "../helpers/child.js";

const ROOT = join(import.meta.dirname, "..", "..");
let root = "";

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "scv-atomic-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const mode = (path: string) => statSync(path).mode & 0o777;

describe("atomic writes", () => {
  it("replace a file whole, 0600 whatever its mode was, and leave nothing beside it", async () => {
    const path = join(root, "a.json");
    writeFileSync(path, "old\n", { mode: 0o644 });
    chmodSync(path, 0o644);
    writeAtomicSync(path, "new\n");
    expect(readFileSync(path, "utf8")).toBe("new\n");
    expect(mode(path)).toBe(0o600);
    writeAtomicSync(path, "newer\n", { fsync: false });
    expect(readFileSync(path, "utf8")).toBe("newer\n");
    expect(mode(path)).toBe(0o600);
    expect(readdirSync(root)).toEqual(["a.json"]);
  });

  it("create a file whole and 0600 only where none is: an existing one (or a symlink) is left as it was", async () => {
    const path = join(root, "t.json");
    expect(createAtomicSync(path, "first\n", { fsync: false })).toBe(true);
    expect(readFileSync(path, "utf8")).toBe("first\n");
    expect(mode(path)).toBe(0o600);
    expect(createAtomicSync(path, "second\n")).toBe(false);
    expect(readFileSync(path, "utf8")).toBe("first\n");
    const link = join(root, "l.json");
    symlinkSync(join(root, "elsewhere.json"), link);
    expect(createAtomicSync(link, "third\n")).toBe(false);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readdirSync(root).sort()).toEqual(["l.json", "t.json"]);
    // A failure other than "exists" is thrown, and leaves no temporary file.
    expect(() => createAtomicSync(join(root, "missing", "x.json"), "x\n")).toThrow(/ENOENT/);
    expect(readdirSync(root).sort()).toEqual(["l.json", "t.json"]);
  });

  it("never touch another writer's temporary file: a name in use is passed over for another", async () => {
    const path = join(root, "r.json");
    const draws = [0.25, 0.25, 0.75, 0.25, 0.5];
    const random = vi.spyOn(Math, "random").mockImplementation(() => draws.shift() ?? 0.9);
    try {
      const taken = temporaryPath(path);
      // Its writer's pid in the name, for the sweep of a killed writer's.
      expect(taken).toBe(`${path}.${process.pid}-${(2 ** 30).toString(36)}.tmp`);
      writeFileSync(taken, "another writer's half-written text");
      writeAtomicSync(path, "mine\n");
      expect(readFileSync(path, "utf8")).toBe("mine\n");
      expect(readFileSync(taken, "utf8")).toBe("another writer's half-written text");
      writeAtomicSync(path, "mine again\n");
      expect(readFileSync(path, "utf8")).toBe("mine again\n");
      expect(readdirSync(root).sort()).toEqual([
        "r.json",
        `r.json.${process.pid}-${(2 ** 30).toString(36)}.tmp`,
      ]);
    } finally {
      random.mockRestore();
    }
  });

  it("replace a symlink instead of writing a secret through it", async () => {
    const outside = join(root, "outside.json");
    writeFileSync(outside, "the user's own file\n");
    mkdirSync(join(root, "home"));
    const link = join(root, "home", "auth.json");
    symlinkSync(outside, link);
    await writePrivate(join(root, "home"), link, '{"key":"sk-canary"}\n');
    expect(lstatSync(link).isSymbolicLink()).toBe(false);
    expect(readFileSync(link, "utf8")).toBe('{"key":"sk-canary"}\n');
    expect(mode(link)).toBe(0o600);
    expect(readFileSync(outside, "utf8")).toBe("the user's own file\n");

    const record = join(root, "home", "record.json");
    symlinkSync(outside, record);
    writeAtomicSync(record, "{}\n");
    expect(lstatSync(record).isFile()).toBe(true);
    expect(readFileSync(outside, "utf8")).toBe("the user's own file\n");
  });

  // A process whose file size limit (ulimit -f) is far below what it writes: the kernel takes part
  // of the text without an error (a short write), then refuses the rest (EFBIG), as a disk that
  // fills up does (ENOSPC). write-file-atomic, which scv used before, took the short write for the whole text
  // and renamed the truncated file over the old one.
  it.runIf(process.platform !== "win32").each(["record", "credential"])(
    "a %s write that fails half-way leaves the old file whole and no partial file",
    async (kind) => {
      const env = { ...process.env, SCV_HOME: join(root, "scv") };
      let path: string;
      if (kind === "record") {
        writeConversation(
          {
            handle: "codex-k3f9x2",
            agent: "codex",
            sessionId: "s-1",
            cwd: "/p",
            policy: "default",
            createdAt: "2026-01-01T00:00:00.000Z",
            updatedAt: "2026-01-01T00:00:00.000Z",
            turns: 1,
            usage: {},
          },
          env,
        );
        path = join(conversationsDir(env), "codex-k3f9x2.json");
      } else {
        path = join(root, "scv", "agents", "codex", ".codex", "auth.json");
        mkdirSync(join(path, ".."), { recursive: true });
        writeFileSync(path, '{"OPENAI_API_KEY":"sk-old"}\n', { mode: 0o600 });
      }
      const old = readFileSync(path, "utf8");
      const script = await builtChild(join(import.meta.dirname, "atomic-child.ts"));
      const child = spawnSync(
        "sh",
        ["-c", 'ulimit -f 16 && exec "$0" "$1" "$2" "$3"', process.execPath, script, kind, path],
        { cwd: ROOT, env, encoding: "utf8" },
      );
      expect(child.status, child.stderr).toBe(0);
      const { error } = JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "{}") as {
        error: string | null;
      };
      expect(error).toMatch(/EFBIG/);
      if (kind === "record")
        expect(error).toMatch(/^cannot save conversation record .*codex-k3f9x2\.json \(EFBIG\) — .*ulimit/);
      expect(error).not.toContain("\n");
      expect(readFileSync(path, "utf8")).toBe(old);
      expect(mode(path)).toBe(0o600);
      expect(readdirSync(join(path, ".."))).toEqual([path.slice(path.lastIndexOf("/") + 1)]);
      if (kind === "record") expect(readConversation("codex-k3f9x2", env).turns).toBe(1);
    },
  );
});

describe("temporary files a killed writer left", () => {
  it("name their writer, and the sweep removes only those whose writer is gone", () => {
    const dead = Number(
      spawnSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" }).stdout,
    );
    const mine = temporaryPath(join(root, "a.json")).slice(root.length + 1);
    expect(temporaryWriter(mine)).toBe(process.pid);
    const gone = `b.json.${dead}-zz.tmp`;
    // pid 1 lives (whoever owns it: EPERM is alive too).
    const init = "c.json.1-zz.tmp";
    const foreign = "d.json.12345";
    for (const name of [mine, gone, init, foreign]) writeFileSync(join(root, name), "x");
    expect(sweepDeadTemporaries(root, readdirSync(root))).toEqual([gone]);
    expect(readdirSync(root).sort()).toEqual([mine, init, foreign].sort());
  });
});
