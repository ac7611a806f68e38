// `npm run bench [-- --quick]`: bundles the benchmark (bench/*.ts, and the src/ modules it measures)
// with esbuild the way scripts/build.mjs bundles scv, then runs it. The parser cases therefore run
// the same bundled framing + parser code that dist/scv.js ships, with no TypeScript loader in the
// measured process. Bundles and results go to node_modules/.cache/scv-bench/, out of git and biome.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));

await build({
  absWorkingDir: root,
  entryPoints: {
    main: "bench/main.ts",
    "parser-case": "bench/parsers/case.ts",
    "parser-emit": "bench/parsers/emit.ts",
  },
  outdir: "node_modules/.cache/scv-bench",
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  banner: {
    // Bundled CommonJS dependencies (which) call require(), as in scripts/build.mjs.
    js: "import { createRequire as __benchCreateRequire } from 'node:module';\nconst require = __benchCreateRequire(import.meta.url);",
  },
  logLevel: "warning",
});

const { status } = spawnSync(
  process.execPath,
  ["node_modules/.cache/scv-bench/main.mjs", ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: "inherit",
  },
);
process.exitCode = status ?? 1;
