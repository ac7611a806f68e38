// What a plain turn loads. Start-up is most of what scv adds to a turn (docs/benchmarks.md), and a
// stray import of a heavy built-in or a vendored library slips in easily; this holds the line the
// benchmark figures were measured at. Node's own process.moduleLoadList lists every built-in loaded.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ADAPTERS } from "../../src/adapters.js";
import { VERSION } from "../../src/version.js";
import { useLab } from "../helpers/lab.js";
import { ensureBuilt, SCV, type ScvRun, scv, signIn } from "../helpers/scv.js";

const lab = useLab();

/** Loaded by none of a plain turn's code (docs/benchmarks.md). */
const HEAVY_BUILTINS = [
  "NativeModule crypto", // ids come from src/random.ts
  "NativeModule fs/promises", // small files are read synchronously
  "NativeModule internal/fs/rimraf", // fs.rmSync's; single files are unlinked
  "NativeModule assert", // proper-lockfile's signal-exit: a first turn takes no lock
  "NativeModule worker_threads",
];

interface Loaded {
  readonly run: ScvRun;
  /** Node's built-ins the scv process loaded (process.moduleLoadList). */
  readonly builtins: string[];
  /** The files it required: the launcher, and any vendored library (dist/vendor/). */
  readonly files: string[];
}

/** Runs scv with a preload that reports, at its exit, what the scv process loaded. */
async function loadedBy(args: readonly string[]): Promise<Loaded> {
  const report = join(lab.world.root, "loaded.json");
  const preload = join(lab.world.root, "report-loaded.cjs");
  // Only scv's own process reports (the fake agent is a Node script too and inherits the preload).
  writeFileSync(
    preload,
    `process.on("exit", () => {
      if (!process.argv[1].endsWith("scv.js")) return;
      require("node:fs").writeFileSync(${JSON.stringify(report)}, JSON.stringify({
        builtins: process.moduleLoadList, files: Object.keys(require.cache) }));
    });\n`,
  );
  const run = await scv(lab.world, args, { env: { NODE_OPTIONS: `--require ${preload}` } });
  return { run, ...(JSON.parse(readFileSync(report, "utf8")) as { builtins: string[]; files: string[] }) };
}

const vendored = (files: readonly string[]) => files.filter((file) => file.includes(join("dist", "vendor")));

describe("a plain `scv delegate` turn", () => {
  it("replies without loading Node's heavy built-ins or the vendored libraries", async () => {
    await signIn(lab.world, "claude");
    const { run, builtins, files } = await loadedBy(["delegate", "claude", "hi"]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).not.toBe("");
    expect(builtins).toContain("NativeModule child_process");
    expect(builtins.filter((name) => HEAVY_BUILTINS.includes(name))).toEqual([]);
    expect(vendored(files)).toEqual([]);
  });
});

describe("`scv --version`", () => {
  it("prints the version without a vendored library or a heavy built-in", async () => {
    const { run, builtins, files } = await loadedBy(["--version"]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe(VERSION);
    expect(builtins.filter((name) => HEAVY_BUILTINS.includes(name))).toEqual([]);
    expect(vendored(files)).toEqual([]);
  });

  it("runs none of a command's set-up: what a dead scv left stays until a command runs", async () => {
    // A temporary file whose writer is dead, as a killed scv leaves one (cli/before-command.ts).
    const turns = join(lab.world.scvHome, "turns");
    mkdirSync(turns, { recursive: true });
    const leftover = join(turns, "claude-abcdef.json.4194305-abc.tmp");
    writeFileSync(leftover, "{}");
    const version = await scv(lab.world, ["--version"]);
    expect(version.exitCode, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(VERSION);
    expect(existsSync(leftover)).toBe(true);
    const help = await scv(lab.world, ["--help"]);
    expect(help.exitCode, help.stderr).toBe(0);
    expect(existsSync(leftover)).toBe(true);
    const ps = await scv(lab.world, ["ps"]);
    expect(ps.exitCode, ps.stderr).toBe(0);
    expect(existsSync(leftover)).toBe(false);
  });
});

describe("the launcher (dist/scv.js)", () => {
  it("holds what reads the code cache and no table: V8 compiles it on every run, without a cache", async () => {
    await ensureBuilt();
    const launcher = readFileSync(SCV, "utf8");
    // Each row's description is a string literal the launcher would carry with the table.
    expect(
      ADAPTERS.filter((entry) => launcher.includes(JSON.stringify(entry.offers))).map((entry) => entry.name),
    ).toEqual([]);
    expect(launcher.length).toBeLessThan(20_000);
  });
});
