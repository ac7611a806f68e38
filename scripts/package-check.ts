// What the published package must be, as checks on its file list and its package.json: used by
// the pack check (scripts/ci-pack.ts) on the real tarball and by test/pack/package.test.ts on the
// tree. Each returns the problems it found, one line each; none means the check passed.

import { builtinModules } from "node:module";
import { posix } from "node:path";

export const PACKAGE_NAME = "scv-cli";
export const BIN = { scv: "dist/scv.js" } as const;
/** Files npm always packs, and the only ones outside dist/ the package carries. */
const TOP_LEVEL = ["package.json", "README.md", "LICENSE"];
/** The lifecycle scripts npm runs when it installs a package (prepare: from a git URL or a folder,
 * and npm 11 lists it among a tarball's install scripts). */
const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall", "prepare"];
/** Fields that make npm install other packages beside this one. */
const DEPENDENCY_FIELDS = ["dependencies", "optionalDependencies", "peerDependencies", "bundleDependencies"];

const BUILTINS = new Set(builtinModules);
/** A `require("…")` call; not one that opens a string (ajv keeps `'require("ajv/dist/runtime/equal")'`
 * as source text for code it generates only in its standalone mode, which scv never uses). */
const REQUIRE = /(?<!['"`])\brequire\(\s*"([^"]+)"\s*\)/g;

export interface PackedFiles {
  /** Paths in the tarball, relative to its package/ folder. */
  readonly packed: readonly string[];
  /** Paths of the files the build wrote, relative to the package root (dist/…). */
  readonly built: readonly string[];
  /** Reads a packed file's text. */
  readonly read: (path: string) => string;
}

/** The file list: everything the build wrote is packed (the launcher reads app.js by path, and
 * dist/package.json is what makes its .js files CommonJS under the root's "type": "module"); every
 * `require` in the packed JavaScript is Node's own or a packed file; nothing else is packed. */
export function packedFileProblems({ packed, built, read }: PackedFiles): string[] {
  const problems: string[] = [];
  const has = new Set(packed);
  for (const file of [...TOP_LEVEL, ...Object.values(BIN), ...built])
    if (!has.has(file)) problems.push(`${file} is not in the package`);
  for (const file of packed)
    if (!file.startsWith("dist/") && !TOP_LEVEL.includes(file))
      problems.push(`${file} is in the package, which holds only dist/, ${TOP_LEVEL.join(", ")}`);
  for (const file of packed.filter((path) => path.endsWith(".js"))) {
    for (const [, specifier] of read(file).matchAll(REQUIRE)) {
      if (specifier === undefined || BUILTINS.has(specifier) || BUILTINS.has(specifier.replace(/^node:/, "")))
        continue;
      if (!specifier.startsWith(".")) {
        problems.push(`${file} requires '${specifier}', which the package neither carries nor declares`);
        continue;
      }
      const target = posix.normalize(posix.join(posix.dirname(file), specifier));
      if (!has.has(target)) problems.push(`${file} requires '${specifier}' (${target}), not in the package`);
    }
  }
  const distPackage = has.has("dist/package.json") ? parse(read("dist/package.json")) : undefined;
  if (distPackage !== undefined && distPackage.type !== "commonjs")
    problems.push(`dist/package.json says type ${String(distPackage.type)}; the bundle is CommonJS`);
  return [...new Set(problems)];
}

/** package.json: the name, the one bin, engines, no install scripts, nothing else to install. */
export function manifestProblems(manifest: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (manifest.name !== PACKAGE_NAME) problems.push(`name is ${String(manifest.name)}, not ${PACKAGE_NAME}`);
  if (JSON.stringify(manifest.bin) !== JSON.stringify(BIN))
    problems.push(`bin is ${JSON.stringify(manifest.bin)}: npx ${PACKAGE_NAME} runs a package's only bin`);
  const engines = manifest.engines as { node?: unknown } | undefined;
  if (typeof engines?.node !== "string") problems.push("engines.node is not declared");
  const scripts = (manifest.scripts ?? {}) as Record<string, unknown>;
  for (const name of INSTALL_SCRIPTS)
    if (scripts[name] !== undefined) problems.push(`scripts.${name} would run on install`);
  for (const field of DEPENDENCY_FIELDS)
    if (declaresAny(manifest[field]))
      problems.push(`${field} is declared: everything scv runs is bundled into dist/ (a devDependency)`);
  return problems;
}

function declaresAny(field: unknown): boolean {
  if (field === undefined || field === false) return false;
  return typeof field !== "object" || field === null || Object.keys(field).length > 0;
}

function parse(text: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
