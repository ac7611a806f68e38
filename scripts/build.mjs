// Bundles the CLI into dist/: app.js, the whole program in one CommonJS file, and scv.js, the small
// executable that runs it through V8's code cache (src/cli/launcher.ts). One file rather than a chunk
// per command: with the cache, V8 neither parses nor compiles what a command does not run, and one
// file saves the module loader's work per chunk (docs/benchmarks.md).
import { createHash } from "node:crypto";
import { chmod, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { build } from "esbuild";

const common = {
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  sourcemap: false,
  legalComments: "none",
  // Without comments and indentation the bundle is smaller and pure ASCII (a one-byte string in V8):
  // the launcher reads it on every run. Names stay: an internal error's stack must be readable.
  minifyWhitespace: true,
  logLevel: "warning",
};

// Stale files from an earlier build would otherwise stay beside the new ones.
await rm("dist", { recursive: true, force: true });
await mkdir("dist");
// The package is "type": "module"; these two files are CommonJS.
await writeFile("dist/package.json", `${JSON.stringify({ type: "commonjs" }, null, 2)}\n`);
// Libraries a plain turn does not use live in files of their own beside the bundle, required when a
// command needs them (p-queue: fan-out; the MCP SDK and jsonc-parser:
// `scv mcp`; the ACP SDK: ACP turns): the launcher reads app.js and its code cache on every run. They share no state with
// scv's code.
const VENDORED = {
  // `import PQueue from "p-queue"` in a CommonJS bundle is Node's default import: module.exports.
  "p-queue": 'module.exports = require("p-queue").default;',
  // The MCP server SDK (with the zod it bundles) runs in `scv mcp` only; its stdio entry shares the
  // one file, so the SDK's core is loaded once.
  "mcp-server": [
    'export * from "@modelcontextprotocol/server";',
    'export { StdioServerTransport, serveStdio } from "@modelcontextprotocol/server/stdio";',
    'export { toJSONSchema } from "zod/v4";',
  ].join("\n"),
  // Its ES build: the UMD one requires its parts through a parameter esbuild cannot follow.
  "jsonc-parser": 'export * from "jsonc-parser/lib/esm/main.js";',
  // The ACP client SDK (with the classic zod it validates with) runs in ACP turns only.
  "acp-sdk": 'export * from "@agentclientprotocol/sdk";',
};
/** The vendored file an import resolves to. */
const VENDOR_IMPORTS = {
  ...Object.fromEntries(Object.keys(VENDORED).map((name) => [name, name])),
  "@modelcontextprotocol/server": "mcp-server",
  "@modelcontextprotocol/server/stdio": "mcp-server",
  "@agentclientprotocol/sdk": "acp-sdk",
  // Classic zod, which the SDK bundles: its JSON Schema converter lists the tools' inputs, and
  // stays out of app.js.
  "zod/v4": "mcp-server",
};
delete VENDOR_IMPORTS["mcp-server"];
for (const [name, contents] of Object.entries(VENDORED)) {
  await build({
    ...common,
    stdin: { contents, resolveDir: ".", loader: "js" },
    outfile: `dist/vendor/${name}.js`,
  });
}
await build({
  ...common,
  entryPoints: ["src/cli/bin.ts"],
  outfile: "dist/app.js",
  plugins: [
    {
      name: "vendored",
      setup(context) {
        const names = Object.keys(VENDOR_IMPORTS).map((name) => name.replace(/[-/@.]/g, "\\$&"));
        context.onResolve({ filter: new RegExp(`^(${names.join("|")})$`) }, (args) => ({
          path: `./vendor/${VENDOR_IMPORTS[args.path]}.js`,
          external: true,
        }));
      },
    },
  ],
});
// The launcher compiles the bundle as the body of CommonJS's module function. Wrapped here once,
// rather than by `Module.wrap` at every start: that concatenation, flattened when compiled, was a
// second copy of the whole bundle allocated on every run.
const bundle = await readFile("dist/app.js", "utf8");
await writeFile(
  "dist/app.js",
  `(function (exports, require, module, __filename, __dirname) { ${bundle}\n});`,
);
const buildId = createHash("sha256")
  .update(await readFile("dist/app.js"))
  .digest("hex")
  .slice(0, 16);
await build({
  ...common,
  entryPoints: ["src/cli/launcher.ts"],
  outfile: "dist/scv.js",
  define: { SCV_BUILD_ID: JSON.stringify(buildId) },
  banner: { js: "#!/usr/bin/env node" },
});
await chmod("dist/scv.js", 0o755);
