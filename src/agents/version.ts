// The version of an installed agent CLI, for `scv agents list` and `scv agents status`. An npm
// install is read, not run: the executable (a symlink, or an npm/pnpm shell shim) leads into
// `node_modules/<package>/`, whose package.json npm wrote with the installed version. Only a CLI
// that is not from npm (a native binary, a vendor installer) is asked `--version`, and then in a
// throwaway home: run in the agent home, one CLI unpacked ~235 MB there on its first `--version`,
// three others made folders, and 13 CLIs starting at once took 5–7 s on two cores.

import { closeSync, mkdirSync, mkdtempSync, readSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve, sep } from "node:path";
import type { AdapterDescriptor } from "../adapters.js";
import { openStateFile, readStateText, SMALL_STATE_BYTES } from "../home/state-file.js";
import { cachedVersion, keepVersion } from "../home/version-cache.js";
import { runBounded } from "../process/helpers.js";
import { cleanUpAtExit } from "../process/lifecycle.js";
import { timing } from "../timing.js";
import { agentEnvironment, type IsolationSettings } from "../transport/env.js";

// On two cores four of the CLIs took 5–7 s to answer `--version` together (1.5–3 s alone),
// so 3 s dropped their versions (contract suite); `agents list` now asks as many at a time as there
// are cores, and each has this long to itself.

/** How much of an executable is read to recognise a shell shim (npm's and pnpm's are under 1 KB). */
const SHIM_HEAD_BYTES = 4096;

const VERSION = /\d+\.\d+(?:\.\d+)?(?:[-+][0-9A-Za-z.-]+)?/;

/** The first version-looking token of a `--version` answer. */
export function parseVersion(output: string): string | null {
  const match = VERSION.exec(output);
  return match ? match[0] : null;
}

/** The version in the package.json of the npm package (one of `packages`) that holds `executable`,
 * or null: not a package install, a broken link, an unreadable or nameless package.json. Spawns
 * nothing. */
export function packageVersion(executable: string, packages: readonly string[]): string | null {
  if (packages.length === 0) return null;
  let real: string;
  try {
    real = realpathSync(executable);
  } catch {
    return null;
  }
  const direct = enclosingPackageVersion(real, packages);
  if (direct !== null) return direct;
  // An npm or pnpm shim (`exec node "$basedir/../@scope/pkg/bin/x.js"`) names its target relative
  // to the folder it was started from, which is where it was found, not where a link to it points.
  const target = shimTarget(real);
  if (target === null) return null;
  try {
    return enclosingPackageVersion(realpathSync(resolve(dirname(executable), target)), packages);
  } catch {
    return null;
  }
}

/** Walks up from `file` to the folder of the installed package that holds it: the nearest
 * `node_modules/<name>/package.json` with that `name`, one of `packages`. Other package.json files on
 * the way (a `dist/package.json`, a package of another name) are passed over; the walk stops at the
 * `node_modules` folder, beyond which is the project that installed it, not the package. */
function enclosingPackageVersion(file: string, packages: readonly string[]): string | null {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (basename(dir) === "node_modules" || dirname(dir) === dir) return null;
    const found = readPackage(dir);
    // Only `…/node_modules/<name>` is an install: a checkout of the package's sources has the same
    // name, but its package.json need not say what was built.
    if (
      found !== null &&
      packages.includes(found.name) &&
      dir.endsWith(`${sep}node_modules${sep}${found.name}`)
    ) {
      return found.version;
    }
  }
}

function readPackage(dir: string): { name: string; version: string } | null {
  let data: unknown;
  try {
    const text = readStateText(join(dir, "package.json"), { maxBytes: SMALL_STATE_BYTES, followLinks: true });
    if (text === undefined) return null;
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof data !== "object" || data === null) return null;
  const { name, version } = data as { name?: unknown; version?: unknown };
  if (typeof name !== "string" || typeof version !== "string") return null;
  // A version npm wrote is one token; anything else is not trusted over asking the CLI.
  const match = VERSION.exec(version);
  return match !== null && match[0] === version ? { name, version } : null;
}

/** The script a shell shim runs (`"$basedir/…"`, not the `node` it may run it with), or null. */
function shimTarget(file: string): string | null {
  let head: string;
  // npm's bin entries are links; a FIFO on PATH is not waited on.
  const opened = openStateFile(file, { followLinks: true });
  if (opened.kind !== "open") return null;
  try {
    const buffer = Buffer.alloc(SHIM_HEAD_BYTES);
    head = buffer.toString("utf8", 0, readSync(opened.fd, buffer, 0, SHIM_HEAD_BYTES, 0));
  } catch {
    return null;
  } finally {
    closeSync(opened.fd);
  }
  if (!head.startsWith("#!")) return null;
  for (const match of head.matchAll(/"\$basedir\/([^"$`]+)"/g)) {
    const target = match[1] as string;
    if (target !== "node" && target !== "node.exe") return target;
  }
  return null;
}

export interface VersionRequest {
  readonly entry: AdapterDescriptor;
  /** The resolved executable (`locateAgent`). */
  readonly executable: string;
  /** scv's own environment. */
  readonly env: NodeJS.ProcessEnv;
  /** The agent's variables from scv's config. */
  readonly extra?: Readonly<Record<string, string>>;
  /** The config's `[isolation]`. */
  readonly isolation?: IsolationSettings;
}

/** The installed CLI's version: from its npm package when it has one, else its `--version` answer
 * (kept by the executable's path, mtime and size: src/home/version-cache.ts); null when neither
 * tells. */
export async function agentVersion(request: VersionRequest): Promise<string | null> {
  const { entry, executable } = request;
  const fromPackage = packageVersion(executable, [...entry.packages, ...(entry.binPackages ?? [])]);
  if (fromPackage !== null) return fromPackage;
  const kept = cachedVersion(executable, request.env);
  if (kept !== undefined) return kept;
  const answer = await askVersion(request);
  if (answer.answered) keepVersion(executable, answer.version, request.env);
  return answer.version;
}

/** `<cli> --version` with the agent's isolated environment, but HOME, XDG_*, the agent's own home
 * variables, TMPDIR and the working folder all in a temporary folder removed afterwards: whatever a
 * CLI writes on its first run goes with it, and no credential of the user's or the agent's is read. */
async function askVersion(request: VersionRequest): Promise<{ answered: boolean; version: string | null }> {
  const none = { answered: false, version: null };
  let scratch: string;
  try {
    scratch = mkdtempSync(join(tmpdir(), "scv-version-"));
  } catch {
    return none;
  }
  // An interrupted scv (Ctrl-C during `scv agents list`) removes it on its way out.
  const forget = cleanUpAtExit(() => rmSync(scratch, { recursive: true, force: true, maxRetries: 2 }));
  try {
    const temp = join(scratch, "tmp");
    mkdirSync(temp);
    const env = agentEnvironment({
      parent: request.env,
      entry: request.entry,
      home: scratch,
      policy: "default",
      extra: request.extra,
      isolation: request.isolation,
    });
    const result = await runBounded(request.executable, ["--version"], {
      env: { ...env, TMPDIR: temp },
      cwd: scratch,
      timeoutMs: timing("versionLimit"),
      maxBytes: 4096,
    });
    // Only an answer is kept: a CLI that failed or did not answer in time is asked again next time.
    if (result.timedOut || result.code !== 0) return none;
    return { answered: true, version: parseVersion(`${result.stdout}\n${result.stderr}`) };
  } catch {
    return none;
  } finally {
    forget();
    try {
      rmSync(scratch, { recursive: true, force: true, maxRetries: 2 });
    } catch {
      // A folder the CLI made unremovable stays in the temp folder; the version stands.
    }
  }
}
