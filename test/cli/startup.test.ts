// What a plain turn loads. Start-up is most of what scv adds to a turn (docs/benchmarks.md), and a
// stray import of a heavy built-in or a vendored library slips in easily; this holds the line the
// benchmark figures were measured at. Node's own process.moduleLoadList lists every built-in loaded.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useLab } from "../helpers/lab.js";
import { scv, signIn } from "../helpers/scv.js";

const lab = useLab();

/** Loaded by none of a plain turn's code (docs/benchmarks.md). */
const HEAVY_BUILTINS = [
  "NativeModule crypto", // ids come from src/random.ts
  "NativeModule fs/promises", // small files are read synchronously
  "NativeModule internal/fs/rimraf", // fs.rmSync's; single files are unlinked
  "NativeModule assert", // proper-lockfile's signal-exit: a first turn takes no lock
  "NativeModule worker_threads",
];

describe("a plain `scv delegate` turn", () => {
  it("replies without loading Node's heavy built-ins or the vendored libraries", async () => {
    await signIn(lab.world, "claude");
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
    const run = await scv(lab.world, ["delegate", "claude", "hi"], {
      env: { NODE_OPTIONS: `--require ${preload}` },
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).not.toBe("");
    const loaded = JSON.parse(readFileSync(report, "utf8")) as { builtins: string[]; files: string[] };
    expect(loaded.builtins).toContain("NativeModule child_process");
    expect(loaded.builtins.filter((name) => HEAVY_BUILTINS.includes(name))).toEqual([]);
    expect(loaded.files.filter((file) => file.includes(`${join("dist", "vendor")}`))).toEqual([]);
  });
});
