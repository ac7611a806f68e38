// A test's child process script, bundled with what it imports into one CommonJS file that `node`
// runs at its own start-up cost (about a tenth of a CPU second), as scv's own bundle is, rather than
// through `node --import tsx`, which compiles scv's modules again in every child (about 0.75 s).
// A child script has no top-level await (CommonJS).

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";

/** The path of `entry` (a .ts file) bundled, built again only when what it bundles changed. */
export async function builtChild(entry: string): Promise<string> {
  const built = await build({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    logLevel: "warning",
    write: false,
  });
  const text = built.outputFiles[0]?.text ?? "";
  const dir = join(tmpdir(), `scv-test-children-${process.getuid?.() ?? 0}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const out = join(dir, `${createHash("sha256").update(text).digest("hex").slice(0, 16)}.cjs`);
  if (!existsSync(out)) {
    const temporary = `${out}.${process.pid}.tmp`;
    writeFileSync(temporary, text);
    renameSync(temporary, out);
  }
  return out;
}
