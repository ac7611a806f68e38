// Bundles the CLI: one entry file plus a chunk per lazily imported command, so `scv --help` reads little.
import { chmod, rm } from "node:fs/promises";
import { build } from "esbuild";

// Stale chunks from an earlier build would otherwise pile up beside the new ones.
await rm("dist", { recursive: true, force: true });
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
    // Bundled CommonJS dependencies call require() (which, proper-lockfile) and read __filename
    // (write-file-atomic names its temp files after it); ESM defines neither.
    js: [
      "#!/usr/bin/env node",
      "import { createRequire as __scvCreateRequire } from 'node:module';",
      "import { fileURLToPath as __scvFileUrlToPath } from 'node:url';",
      "const require = __scvCreateRequire(import.meta.url);",
      "const __filename = __scvFileUrlToPath(import.meta.url);",
    ].join("\n"),
  },
  logLevel: "warning",
});
await chmod("dist/scv.js", 0o755);
