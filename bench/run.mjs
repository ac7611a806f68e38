// `npm run bench [-- --quick]`: bundles the benchmark (bench/*.ts, and the src/ modules it measures)
// with esbuild the way scripts/build.mjs bundles scv, then runs it. The parser cases therefore run
// the same bundled framing + parser code that dist/scv.js ships, with no TypeScript loader in the
// measured process. Bundles and results go to node_modules/.cache/scv-bench/, out of git and biome;
// to bench/out/ (ignored too) where node_modules is a link to another checkout's, so that benchmarks
// run in two checkouts at once do not overwrite each other's bundles.
// The built scv (dist/, made by `npm run build` just before) is measured from a copy taken here:
// other work in this tree may rebuild dist/ while the benchmark runs.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, lstatSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const out = lstatSync(join(root, "node_modules")).isSymbolicLink()
  ? join(root, "bench", "out")
  : join(root, "node_modules", ".cache", "scv-bench");

if (!existsSync(join(root, "dist", "scv.js"))) {
  console.error("bench: dist/scv.js is missing — run npm run bench (it builds first) or npm run build");
  process.exit(1);
}
rmSync(join(out, "scv"), { recursive: true, force: true });
cpSync(join(root, "dist"), join(out, "scv"), { recursive: true });

await build({
  absWorkingDir: root,
  entryPoints: {
    main: "bench/main.ts",
    "parser-case": "bench/parsers/case.ts",
    "parser-emit": "bench/parsers/emit.ts",
  },
  outdir: out,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  banner: {
    // Bundled CommonJS dependencies (which) call require(), as in scripts/build.mjs.
    js: [
      "import { createRequire as __benchCreateRequire } from 'node:module';",
      "const require = __benchCreateRequire(import.meta.url);",
    ].join("\n"),
  },
  logLevel: "warning",
});

const { status } = spawnSync(process.execPath, [join(out, "main.mjs"), ...process.argv.slice(2)], {
  cwd: root,
  stdio: "inherit",
  // The bundles cannot find the checkout from where they are when that is another checkout's folder.
  env: { ...process.env, SCV_BENCH_ROOT: root, SCV_BENCH_OUT: out },
});
process.exitCode = status ?? 1;
