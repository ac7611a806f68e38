// Writes dist/THIRD-PARTY-NOTICES.md (`prepack`, after the build): the licenses of the packages
// whose code the bundle carries. The published package declares no dependencies (everything is
// bundled into dist/), so the notices their licenses require in every copy ship here instead.
//
// Which packages: every package src/ imports (a bare specifier, not `import type`), the packages
// those carry inside their own files (CARRIED_INSIDE), and everything those depend on, as
// package-lock.json resolves it. That may name a package the bundler left out (shimmed or shaken
// off); a notice too many costs nothing, one missing would.

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const NOTICES_FILE = "dist/THIRD-PARTY-NOTICES.md";

interface LockEntry {
  readonly version?: string;
  readonly license?: string;
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
}
export interface Lockfile {
  readonly packages: Record<string, LockEntry>;
}

const IMPORT =
  /(?:^|[\s;])(?:(?:import|export)(?!\s+type\s)[^"'`;]*?\sfrom\s*|import\s*\(\s*|import\s+|require\s*\(\s*)["']([^"'./][^"']*)["']/gm;

/** The package a bare specifier names ("zod/mini" → "zod", "@a/b/c" → "@a/b"); undefined for
 * Node's built-ins. */
export function packageName(specifier: string): string | undefined {
  if (specifier.startsWith("node:")) return undefined;
  const parts = specifier.split("/");
  return (specifier.startsWith("@") ? parts.slice(0, 2) : parts.slice(0, 1)).join("/");
}

/** The packages the TypeScript files under `dir` import at run time. */
export function importedPackages(dir: string): string[] {
  const names = new Set<string>();
  for (const file of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    if (!file.endsWith(".ts")) continue;
    for (const [, specifier] of readFileSync(join(dir, file), "utf8").matchAll(IMPORT)) {
      const name = packageName(specifier ?? "");
      if (name !== undefined) names.add(name);
    }
  }
  return [...names].sort();
}

/** Packages whose own published files carry others, bundled in without those packages' licenses:
 * the MCP server SDK's dist holds ajv (with fast-deep-equal, fast-uri, json-schema-traverse),
 * ajv-formats and content-type. They are devDependencies pinned to the versions the SDK bundled, so
 * that their license files are here to copy (test/pack checks the versions against the SDK's). */
export const CARRIED_INSIDE: Readonly<Record<string, readonly string[]>> = {
  "@modelcontextprotocol/server": ["ajv", "ajv-formats", "content-type", "fast-uri"],
};

/** The packages whose code the bundle carries, at the top: what src/ imports and what those carry
 * inside their own files. */
export function noticedPackages(dir: string): string[] {
  const imported = importedPackages(dir);
  return [...new Set([...imported, ...imported.flatMap((name) => CARRIED_INSIDE[name] ?? [])])].sort();
}

/** The lockfile locations of `roots` and of everything they depend on, each dependency resolved as
 * Node finds it (the nearest node_modules up from its dependent). Throws for one the lockfile lacks. */
export function closure(lock: Lockfile, roots: readonly string[]): string[] {
  const resolveFrom = (from: string, name: string): string | undefined => {
    for (let at = from; ; at = at.slice(0, Math.max(0, at.lastIndexOf("/node_modules/")))) {
      const location = `${at === "" ? "" : `${at}/`}node_modules/${name}`;
      if (lock.packages[location] !== undefined) return location;
      if (at === "") return undefined;
    }
  };
  const found = new Set<string>();
  const visit = (from: string, name: string): void => {
    const location = resolveFrom(from, name);
    if (location === undefined)
      throw new Error(`package-lock.json has no ${name} (needed by ${from === "" ? "src/" : from})`);
    if (found.has(location)) return;
    found.add(location);
    const entry = lock.packages[location] ?? {};
    for (const dep of Object.keys(entry.dependencies ?? {})) visit(location, dep);
    // An optional dependency the install left out (another platform's) is not in the bundle.
    for (const dep of Object.keys(entry.optionalDependencies ?? {}))
      if (resolveFrom(location, dep) !== undefined) visit(location, dep);
  };
  for (const name of roots) visit("", name);
  return [...found].sort();
}

/** The notices file for the packages at `locations`, installed under `root`. */
export function renderNotices(root: string, lock: Lockfile, locations: readonly string[]): string {
  const sections = locations.map((location) => {
    const dir = join(root, location);
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      name: string;
      version: string;
      license?: string;
    };
    const files = readdirSync(dir)
      .filter((name) => /^(licen[cs]e|copying|notice)(\.|$)/i.test(name))
      .sort();
    if (files.length === 0)
      throw new Error(`${manifest.name}@${manifest.version} has no license file in ${dir}`);
    const license = lock.packages[location]?.license ?? manifest.license ?? "see below";
    const texts = files.map((name) => `\`\`\`\n${readFileSync(join(dir, name), "utf8").trim()}\n\`\`\``);
    return `## ${manifest.name}@${manifest.version} (${license})\n\n${texts.join("\n\n")}\n`;
  });
  return [
    "# Third-party notices",
    "",
    "scv's bundle (dist/app.js, dist/vendor/) includes code from these packages, under these licenses.",
    "",
    ...sections,
  ].join("\n");
}

if (import.meta.filename === process.argv[1]) {
  try {
    const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as Lockfile;
    const locations = closure(lock, noticedPackages("src"));
    writeFileSync(NOTICES_FILE, renderNotices(".", lock, locations));
    process.stderr.write(`notices: ${locations.length} packages in ${NOTICES_FILE}\n`);
  } catch (error) {
    process.stderr.write(`notices: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
