// Which changed files a review leaves out as generated: what a person does not write and a reviewer
// should not read line by line. The repository says so first, GitHub's way: `linguist-generated` in
// .gitattributes marks a file generated, `-linguist-generated` (or `=false`) marks one that is not,
// whatever the name. Otherwise by name: dependency lockfiles, anything under a `dist/` folder, source
// maps, minified JavaScript and CSS — named `.min.`, or whose added lines average over 110
// characters (GitHub Linguist's test for minified files).
//
// API: `generatedReason({ path, attribute, addedLines })` → why it counts as generated, or
// undefined. Pure.

/** Dependency lockfiles, by file name. */
const LOCKFILES: ReadonlySet<string> = new Set([
  "package-lock.json",
  "npm-shrinkwrap.json",
  "yarn.lock",
  "pnpm-lock.yaml",
  "bun.lock",
  "bun.lockb",
  "deno.lock",
  "Cargo.lock",
  "Gemfile.lock",
  "poetry.lock",
  "Pipfile.lock",
  "pdm.lock",
  "uv.lock",
  "composer.lock",
  "go.sum",
  "mix.lock",
  "Podfile.lock",
  "pubspec.lock",
  "packages.lock.json",
  "flake.lock",
  "Package.resolved",
  "gradle.lockfile",
]);

/** Linguist's limit: minified JavaScript or CSS averages longer lines than this. */
const MINIFIED_LINE_LENGTH = 110;

const SCRIPT_OR_STYLE = /\.(?:js|mjs|cjs|css)$/;

/** What `git check-attr linguist-generated` said of the path: set (or "true"), unset (or "false"),
 * or nothing. */
export type GeneratedAttribute = "set" | "unset" | "unspecified";

/** `git check-attr`'s value as a `GeneratedAttribute`. */
export function generatedAttribute(value: string): GeneratedAttribute {
  if (value === "set" || value === "true") return "set";
  if (value === "unset" || value === "false") return "unset";
  return "unspecified";
}

export interface GeneratedInput {
  readonly path: string;
  readonly attribute: GeneratedAttribute;
  /** The lines the change adds, without their `+`. */
  readonly addedLines: readonly string[];
}

/** Why the file counts as generated, in a few words; undefined when it does not. Pure. */
export function generatedReason(input: GeneratedInput): string | undefined {
  const { path, attribute, addedLines } = input;
  if (attribute === "set") return "linguist-generated in .gitattributes";
  if (attribute === "unset") return undefined;
  const name = path.slice(path.lastIndexOf("/") + 1);
  if (LOCKFILES.has(name)) return "lockfile";
  if (`/${path}`.includes("/dist/")) return "under dist/";
  if (/\.(?:js|mjs|cjs|css)\.map$/.test(name)) return "source map";
  if (/\.min\.(?:js|mjs|cjs|css)$/.test(name)) return "minified";
  if (SCRIPT_OR_STYLE.test(name) && addedLines.length > 0) {
    const average = addedLines.reduce((sum, line) => sum + line.length, 0) / addedLines.length;
    if (average > MINIFIED_LINE_LENGTH) return "minified";
  }
  return undefined;
}

/** The added lines of one file's patch section, without their `+`. Pure. */
export function addedLines(patch: string): string[] {
  return patch
    .split("\n")
    .filter((line) => line.startsWith("+") && !line.startsWith("+++ "))
    .map((line) => line.slice(1));
}
