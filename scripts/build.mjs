// Bundles the CLI: one entry file plus a chunk per lazily imported command, so `scv --help` reads little.
import { chmod } from "node:fs/promises";
import { build } from "esbuild";

await build({
  entryPoints: { scv: "src/cli/bin.ts" },
  outdir: "dist",
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  splitting: true,
  sourcemap: false,
  legalComments: "none",
  banner: {
    // Bundled CommonJS dependencies (which, proper-lockfile) call require().
    js: "#!/usr/bin/env node\nimport { createRequire as __scvCreateRequire } from 'node:module';\nconst require = __scvCreateRequire(import.meta.url);",
  },
  logLevel: "warning",
});
await chmod("dist/scv.js", 0o755);
