// The executable's code cache (src/cli/compile-cache.ts): where it goes, that only a run that went well
// writes it, privately, that a corrupted cache (which V8 itself would run, and crash on), one V8
// rejects, or garbage costs nothing but a rewrite, and that another build's caches are pruned once
// unused for a week.

import { mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { compileCache, readCache, STALE_CACHE_MS } from "../../src/cli/compile-cache.js";
import { useLab } from "../helpers/lab.js";
import { SCV, scv } from "../helpers/scv.js";

const lab = useLab();

const cacheDir = () => join(lab.world.scvHome, "cache", "v8");
const cacheFiles = () => readdirSync(cacheDir()).sort();

describe("compileCache", () => {
  it("keeps one file per build, Node and command in $SCV_HOME/cache/v8, and none before scv's home exists", () => {
    const env = { SCV_HOME: lab.world.scvHome };
    expect(compileCache(env, ["delegate", "codex", "hi"], "b1")).toBeUndefined();
    mkdirSync(lab.world.scvHome);
    const cache = compileCache(env, ["delegate", "codex", "hi"], "b1");
    const prefix = `b1-${process.version}-${process.arch}-`;
    expect(cache).toEqual({ dir: cacheDir(), prefix, file: join(cacheDir(), `${prefix}delegate.bin`) });
    // Options and oddities share one cache rather than naming files.
    expect(compileCache(env, ["--version"], "b1")?.file).toBe(join(cacheDir(), `${prefix}scv.bin`));
    expect(compileCache(env, ["../x"], "b1")?.file).toBe(join(cacheDir(), `${prefix}scv.bin`));
  });

  it("keeps continued turns and runs with a config file apart: each compiles code the others do not", () => {
    mkdirSync(lab.world.scvHome);
    const env: NodeJS.ProcessEnv = { SCV_HOME: lab.world.scvHome };
    const name = (argv: string[], using = env) => compileCache(using, argv, "b1")?.file.split("-x64-")[1];
    expect(name(["delegate", "codex", "hi"])).toBe("delegate.bin");
    expect(name(["delegate", "-c", "codex-k3f9x2", "hi"])).toBe("delegate-continue.bin");
    expect(name(["delegate", "--continue=codex-k3f9x2", "hi"])).toBe("delegate-continue.bin");
    expect(name(["delegate", "--continue", "codex-k3f9x2", "hi"])).toBe("delegate-continue.bin");
    writeFileSync(join(lab.world.scvHome, "config.toml"), "parallel = 2\n");
    expect(name(["delegate", "codex", "hi"])).toBe("delegate-config.bin");
    expect(name(["delegate", "-c", "codex-k3f9x2", "hi"])).toBe("delegate-continue-config.bin");
    expect(name(["agents", "list"])).toBe("agents-config.bin");
    // Help runs commander and none of the command; a prompt after `--` is no option.
    expect(name(["delegate", "--help"])).toBe("delegate-help.bin");
    expect(name(["delegate", "-c", "codex-k3f9x2", "-h"])).toBe("delegate-help.bin");
    expect(name(["delegate", "codex", "--", "-c"])).toBe("delegate-config.bin");
    expect(name(["delegate", "codex", "--", "--help"])).toBe("delegate-config.bin");
    // A config file named by SCV_CONFIG counts only when it is there.
    const named = { ...env, SCV_CONFIG: join(lab.world.root, "absent.toml") };
    expect(name(["delegate", "codex", "hi"], named)).toBe("delegate.bin");
  });
});

describe("scv's code cache", () => {
  it("is written by a run that exits 0, private, and not by one that fails", async () => {
    mkdirSync(lab.world.scvHome, { mode: 0o700 });
    expect((await scv(lab.world, ["agents", "frobnicate"])).exitCode).toBe(2);
    expect(() => cacheFiles()).toThrow();
    expect((await scv(lab.world, ["agents", "list"])).exitCode).toBe(0);
    const [file, ...others] = cacheFiles();
    expect(others).toEqual([]);
    expect(file).toMatch(new RegExp(`^[0-9a-f]{16}-${process.version}-${process.arch}-agents\\.bin$`));
    expect(statSync(cacheDir()).mode & 0o777).toBe(0o700);
    expect(statSync(join(cacheDir(), file ?? "")).mode & 0o777).toBe(0o600);
  });

  it("a write that fails (a file size limit) leaves no partial file behind, run after run", async () => {
    mkdirSync(lab.world.scvHome, { mode: 0o700 });
    for (let run = 0; run < 2; run += 1) {
      // Node ignores SIGXFSZ: past the limit the write fails with EFBIG and the command goes on.
      const limited = await execa(
        "sh",
        ["-c", `ulimit -f 40; exec "$0" "$@"`, process.execPath, SCV, "agents", "list"],
        {
          cwd: lab.world.project,
          env: lab.world.env,
          extendEnv: false,
          reject: false,
        },
      );
      expect([limited.exitCode, limited.stderr]).toEqual([0, ""]);
    }
    expect(cacheFiles()).toEqual([]);
  });

  it("a garbage cache changes nothing for the user and is replaced; another build's is pruned", async () => {
    mkdirSync(lab.world.scvHome, { mode: 0o700 });
    const clean = await scv(lab.world, ["agents", "list"]);
    const [file] = cacheFiles();
    const path = join(cacheDir(), file ?? "");
    writeFileSync(path, "not a code cache");
    // Another build's caches: one unused for over a week goes, a recent one (another install of
    // scv sharing this home) stays.
    const other = (build: string) => `${build}-${process.version}-${process.arch}-agents.bin`;
    writeFileSync(join(cacheDir(), other("0000000000000000")), "old");
    const weekAgo = (Date.now() - STALE_CACHE_MS - 60_000) / 1000;
    utimesSync(join(cacheDir(), other("0000000000000000")), weekAgo, weekAgo);
    writeFileSync(join(cacheDir(), other("1111111111111111")), "recent");
    const again = await scv(lab.world, ["agents", "list"]);
    expect([again.exitCode, again.stdout, again.stderr]).toEqual([0, clean.stdout, clean.stderr]);
    expect(cacheFiles()).toEqual([other("1111111111111111"), file].sort());
    expect(readFileSync(path).length).toBeGreaterThan(10_000);
  });

  it("a cache with a flipped byte is discarded and rebuilt: the next run works", async () => {
    mkdirSync(lab.world.scvHome, { mode: 0o700 });
    const clean = await scv(lab.world, ["agents", "list"]);
    const [file] = cacheFiles();
    const path = join(cacheDir(), file ?? "");
    const good = readFileSync(path);
    expect(readCache(path)?.length).toBe(good.length - 4);
    // Unchecked, V8 crashed (SIGTRAP, SIGSEGV) on flips at each of these places.
    for (const offset of [2000, Math.floor(good.length / 3), good.length - 100]) {
      const flipped = Buffer.from(good);
      flipped[offset] = (flipped[offset] ?? 0) ^ 0x40;
      writeFileSync(path, flipped);
      expect(readCache(path)).toBeUndefined();
      const again = await scv(lab.world, ["agents", "list"]);
      expect([offset, again.exitCode, again.stdout, again.stderr]).toEqual([
        offset,
        0,
        clean.stdout,
        clean.stderr,
      ]);
      expect(readCache(path)).toBeDefined();
    }
  });
});

describe("readCache", () => {
  it("returns V8's data only when the file's checksum holds", () => {
    mkdirSync(lab.world.scvHome);
    const path = join(lab.world.scvHome, "cache.bin");
    const data = Buffer.from("some code cache bytes");
    const header = Buffer.alloc(4);
    header.writeUInt32LE(crc32(data));
    writeFileSync(path, Buffer.concat([header, data]));
    expect(readCache(path)).toEqual(data);
    for (const bad of [Buffer.concat([header, data.subarray(1)]), header, Buffer.alloc(0), data]) {
      writeFileSync(path, bad);
      expect(readCache(path)).toBeUndefined();
    }
    expect(readCache(join(lab.world.scvHome, "absent.bin"))).toBeUndefined();
  });
});
